-- Invoices, the payable-amount reservations that bind EVM transfers to them, and every transfer seen.

create sequence invoice_number_seq start with 1001;

create table invoice (
    id                       uuid primary key,
    invoice_number           bigint not null unique,
    partner_id               varchar(64) not null,
    status                   varchar(16) not null check (status in ('PENDING', 'SETTLED')),
    amount                   numeric(20, 6) not null check (amount > 0),
    currency                 varchar(8) not null,
    customer_email           varchar(254),
    customer_name            varchar(200),
    description              varchar(1000),
    chain                    varchar(16) not null,
    network_id               varchar(32) not null,
    payment_address          varchar(128) not null,
    usdc_address             varchar(128) not null,
    payable_atomic           numeric(30, 0) not null,
    memo                     varchar(64) unique,
    tx_hash                  varchar(128),
    settlement_block_number  bigint,
    settlement_source        varchar(32),
    settlement_transfer_id   varchar(256) unique,
    paid_atomic              numeric(78, 0),
    payer_address            varchar(128),
    settled_at               timestamptz,
    created_at               timestamptz not null,
    updated_at               timestamptz not null
);

create index invoice_partner_page on invoice (partner_id, invoice_number desc);

-- An EVM invoice owns its payable amount on its chain while PENDING and for a hold period after it
-- settled (so a reorged-out payment can come back to the same invoice). Never two owners at once.
create table payable_reservation (
    chain           varchar(16) not null,
    payable_atomic  numeric(30, 0) not null,
    invoice_id      uuid not null references invoice (id) deferrable initially deferred,
    released_at     timestamptz,
    primary key (chain, payable_atomic)
);

create index payable_reservation_invoice on payable_reservation (invoice_id);

-- Every transfer the watcher reported, with what it did: SETTLED an invoice, UNMATCHED (kept for the
-- operator, with the reason), or RETRACTED by a reorg.
create table chain_transfer (
    transfer_id   varchar(256) primary key,
    chain         varchar(16) not null,
    tx_hash       varchar(128) not null,
    log_index     integer not null,
    block_number  bigint not null,
    from_address  varchar(128),
    to_address    varchar(128),
    token         varchar(128),
    amount        numeric(78, 0) not null,
    memo          varchar(1024),
    source        varchar(32),
    status        varchar(16) not null check (status in ('SETTLED', 'UNMATCHED', 'RETRACTED')),
    reason        varchar(64),
    invoice_id    uuid,
    detected_at   timestamptz not null,
    retracted_at  timestamptz
);

create index chain_transfer_unmatched on chain_transfer (detected_at desc) where status = 'UNMATCHED';
