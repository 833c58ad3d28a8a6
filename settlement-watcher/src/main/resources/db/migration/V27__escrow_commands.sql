-- Operator commands for the chains' MandateEscrow (issue 30), from escrow-commands: recorded once per command id
-- (a redelivered command changes nothing), executed one at a time per chain by the instance holding the chain's
-- lease. PENDING: to dry-run and send; SENT: a signed transaction is out (tx_hash, raw_tx), waiting for its
-- receipt; DONE: mined (or found already done on chain: a release whose ref was used); FAILED: the contract refused
-- it for good (reason), escrow.command_failed published. A transaction that reverts or vanishes goes back to PENDING:
-- the contract itself refuses a second payment (each release ref pays once; freeze and resolve need their state).
create table escrow_command (
    command_id     varchar(100) primary key,
    chain          varchar(16) not null,
    type           varchar(32) not null,
    escrow_id      varchar(80) not null,
    mandate_hash   varchar(80) not null,
    calldata       text not null,
    state          varchar(16) not null check (state in ('PENDING', 'SENT', 'DONE', 'FAILED')),
    tx_hash        varchar(128),
    nonce          bigint,
    raw_tx         text,
    attempts       integer not null default 0,
    last_error     varchar(500),
    created_at     timestamptz not null,
    sent_at        timestamptz,
    updated_at     timestamptz not null
);

create index escrow_command_open on escrow_command (chain, created_at) where state in ('PENDING', 'SENT');
