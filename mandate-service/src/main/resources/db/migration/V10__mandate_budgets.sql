-- Budgets on mandates and the charges made against them (issue 28). Version 10 (not 4) leaves room for the
-- other v0.2 migrations being written at the same time; quarkus.flyway.out-of-order applies them either way.
-- A budget is part of the signed mandate (its terms never change after creation); the ledger columns
-- (period_start, reserved_atomic, spent_atomic) are the money state of the current period, changed only
-- by a transaction that holds this row locked (select ... for update): mandate-service README, "Budgets".
create table mandate_budget (
    mandate_id            varchar(64) primary key references mandate (id),
    amount                varchar(32) not null,          -- as sent and signed, e.g. "1.00"
    currency              varchar(8)  not null,
    period                varchar(64),                   -- ISO 8601 duration as sent, or null
    max_per_charge        varchar(32),
    amount_atomic         numeric(38, 0) not null check (amount_atomic > 0),
    period_millis         bigint check (period_millis > 0),
    max_per_charge_atomic numeric(38, 0),
    period_start          timestamptz,                   -- null until the first charge
    reserved_atomic       numeric(38, 0) not null default 0,
    spent_atomic          numeric(38, 0) not null default 0,
    created_at            timestamptz not null,
    updated_at            timestamptz not null,
    constraint budget_never_overspent check (reserved_atomic >= 0 and spent_atomic >= 0
                                             and reserved_atomic + spent_atomic <= amount_atomic)
);

create table mandate_charge (
    id                   varchar(64) primary key,
    seq                  bigserial not null unique,
    mandate_id           varchar(64) not null references mandate_budget (mandate_id),
    partner_id           varchar(64) not null,
    amount_atomic        numeric(38, 0) not null check (amount_atomic > 0),
    chain                varchar(32) not null,
    description          varchar(1000),
    invoice_expires_at   timestamptz,
    status               varchar(16) not null,
    invoice_id           varchar(64) unique,
    idempotency_key      varchar(255),
    fingerprint          varchar(64),
    answer               text,
    created_at           timestamptz not null,
    settled_at           timestamptz,
    released_at          timestamptz,
    settled_period_start timestamptz,
    constraint charge_status check (status in ('reserving', 'pending', 'settled', 'released')),
    constraint charge_invoice check ((status = 'reserving') = (invoice_id is null))
);
create index mandate_charge_page on mandate_charge (mandate_id, seq desc);
create unique index mandate_charge_idempotency on mandate_charge (partner_id, idempotency_key)
    where idempotency_key is not null;
create index mandate_charge_reserving on mandate_charge (created_at) where status = 'reserving';
