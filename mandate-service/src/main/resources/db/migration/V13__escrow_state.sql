-- The escrow of a mandate as settlement-watcher reports it on escrow-events (issue 30): every applied contract event
-- with the totals and state the contract had at its block, and the current view (the latest event not rolled back by a
-- reorg, by block and log index). mandate-service never computes money itself here: it shows what the chain says.
create index mandate_by_hash on mandate (proto_mandate_hash);

create table mandate_escrow_event (
    event_id        uuid primary key,
    mandate_id      varchar(40) not null references mandate (id),
    type            varchar(32) not null,
    chain           varchar(32) not null,
    contract        varchar(42) not null,
    escrow_id       varchar(66) not null,
    tx_hash         varchar(66) not null,
    log_index       int not null,
    block_number    bigint not null,
    amount_atomic   numeric(38, 0),
    ref             varchar(66),
    funder          varchar(42),
    counterparty    varchar(42),
    stream_start    bigint,
    stream_end      bigint,
    expires_at      bigint,
    funded_atomic    numeric(38, 0) not null,
    released_atomic  numeric(38, 0) not null,
    withdrawn_atomic numeric(38, 0) not null,
    refunded_atomic  numeric(38, 0) not null,
    held_atomic      numeric(38, 0) not null,
    state           varchar(16) not null,
    rolled_back     boolean not null default false,
    created_at      timestamptz not null
);
create index mandate_escrow_event_latest on mandate_escrow_event (mandate_id, block_number desc, log_index desc)
    where not rolled_back;

-- Operator commands sent to settlement-watcher on escrow-commands (through the outbox), and what became of them.
create table mandate_escrow_command (
    command_id      uuid primary key,
    mandate_id      varchar(40) not null references mandate (id),
    type            varchar(32) not null,
    charge_id       varchar(64),
    ref             varchar(66),             -- a release's ref: keccak-256 of the charge id
    amount_atomic   numeric(38, 0),
    to_counterparty_atomic numeric(38, 0),
    to_proposer_atomic     numeric(38, 0),
    status          varchar(16) not null,
    reason          text,
    created_at      timestamptz not null,
    updated_at      timestamptz not null,
    constraint escrow_command_status check (status in ('sent', 'done', 'failed'))
);
create index mandate_escrow_command_mandate on mandate_escrow_command (mandate_id, created_at);
-- at most one release per charge, ever (the contract refuses a used ref too)
create unique index mandate_escrow_command_charge on mandate_escrow_command (charge_id) where charge_id is not null;
