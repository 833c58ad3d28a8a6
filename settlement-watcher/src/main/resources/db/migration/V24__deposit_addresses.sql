-- The invoices' own deposit addresses the watcher attributes transfers to (learned from invoice.created
-- on invoice-events; no service reads another's database), and the sweep ledger.

-- When a block was scanned: an invoice created at T cannot have been paid in a block scanned before T,
-- so a newly learned address is back-filled from the newest block scanned before its invoice existed.
alter table seen_block add column scanned_at timestamptz not null default now();

create table deposit_address (
    seq              bigserial not null unique,
    chain            varchar(16) not null,
    address          varchar(64) not null,              -- lower-case 0x hex
    invoice_id       uuid not null,
    invoice_created  timestamptz not null,
    backfill_from    bigint,                            -- first block still to back-fill; null when done
    registered_at    timestamptz not null,
    unsweepable      varchar(300),                      -- why sweeps skip it (not this factory's address)
    primary key (chain, address)
);

-- The sweep ledger. What a deposit address received is its detected transfers (detected_transfer);
-- what was swept from it is its sweep_item rows of CONFIRMED batches (amounts read from the factory's
-- Swept events); received - swept is what it still holds. A batch is one signed sweep transaction,
-- recorded (SENT, with its raw bytes and hash) before it is broadcast, so a crash or an outage can
-- only ever re-broadcast the same transaction: never a second one for the same money.
create table sweep_batch (
    id             uuid primary key,
    chain          varchar(16) not null,
    state          varchar(16) not null check (state in ('SENT', 'CONFIRMED', 'FAILED')),
    tx_hash        varchar(128) not null,
    nonce          bigint not null,
    raw_tx         text not null,
    addresses      jsonb not null,                       -- the deposit addresses it sweeps, lower case
    swept_atomic   numeric(78, 0),
    attempts       integer not null default 1,
    last_error     varchar(500),
    created_at     timestamptz not null,
    broadcast_at   timestamptz not null,
    updated_at     timestamptz not null
);

create index sweep_batch_open on sweep_batch (chain) where state = 'SENT';
create index sweep_batch_recent on sweep_batch (created_at desc);

create table sweep_item (
    batch_id     uuid not null references sweep_batch (id),
    chain        varchar(16) not null,
    address      varchar(64) not null,
    amount       numeric(78, 0) not null,
    primary key (batch_id, address)
);

create index sweep_item_address on sweep_item (chain, address);
create index detected_transfer_to on detected_transfer (chain, to_address) where status = 'DETECTED';
