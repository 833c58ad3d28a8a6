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
    primary key (chain, address)
);

-- Every transfer into a deposit address is owed to the seller wallet: the sweep ledger.
-- owed: what arrived (a row per detected transfer, written with it); swept: what a sweep moved.
create table sweep_batch (
    id           uuid primary key,
    chain        varchar(16) not null,
    state        varchar(16) not null check (state in ('PREPARED', 'SENT', 'CONFIRMED', 'FAILED')),
    tx_hash      varchar(128),
    nonce        bigint,
    salts        jsonb not null,
    swept_atomic numeric(78, 0),
    attempts     integer not null default 0,
    last_error   varchar(500),
    created_at   timestamptz not null,
    updated_at   timestamptz not null
);

create index sweep_batch_open on sweep_batch (chain, created_at) where state in ('PREPARED', 'SENT');

create table sweep_item (
    batch_id     uuid not null references sweep_batch (id),
    chain        varchar(16) not null,
    address      varchar(64) not null,
    amount       numeric(78, 0) not null,               -- moved by this batch (its Swept event)
    primary key (batch_id, address)
);

create index sweep_item_address on sweep_item (chain, address);
