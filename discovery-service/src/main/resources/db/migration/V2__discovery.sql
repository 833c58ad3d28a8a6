-- Trust-signal counters, kept as sets of distinct keys so that a key seen twice (a redelivered event,
-- or two events about the same fact) counts once. Filled only from Kafka events.

-- Mandates that reached signed_by_both: one DRS receipt each.
create table drs_receipt (
    mandate_id   varchar(128) primary key,
    event_id     uuid not null,
    occurred_at  timestamptz not null
);

-- Anchored transitions; mandates_anchored is the number of distinct mandates among them.
create table anchored_transition (
    transition_id  varchar(128) primary key,
    mandate_id     varchar(128) not null,
    tx_hash        varchar(80) not null,
    occurred_at    timestamptz not null
);
create index anchored_transition_mandate on anchored_transition (mandate_id);

-- Invoices currently settled (an invoice.unsettled after a reorg removes its row).
create table settled_invoice (
    invoice_id   varchar(128) primary key,
    occurred_at  timestamptz not null
);

-- Published ATRR benchmark documents and their raw logs.
create table benchmark (
    id            varchar(64) primary key,
    seq           bigserial not null unique,
    score         numeric(5, 4) not null,
    document      text not null,
    raw_logs      text not null,
    published_at  timestamptz not null
);
