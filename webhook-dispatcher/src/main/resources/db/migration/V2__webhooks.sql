-- Webhook subscriptions, the events they matched, one delivery per (subscription, event) and every attempt.

create table webhook_subscription (
    id                          uuid primary key,
    partner_id                  varchar(64) not null,
    url                         varchar(2048) not null,
    events                      text[] not null,
    description                 varchar(256),
    -- Needed in clear to compute HMACs; never returned by the API and never logged.
    secret                      varchar(256) not null,
    previous_secret             varchar(256),
    previous_secret_expires_at  timestamptz,
    status                      varchar(16) not null default 'active',
    disabled_reason             varchar(64),
    disabled_at                 timestamptz,
    -- Start of the current run of failed attempts (null after any success).
    failing_since               timestamptz,
    created_at                  timestamptz not null default now(),
    updated_at                  timestamptz not null default now()
);

create index webhook_subscription_partner on webhook_subscription (partner_id, created_at);
create index webhook_subscription_events on webhook_subscription using gin (events) where status = 'active';

-- The exact envelope bytes sent on every attempt of every delivery of this event.
create table webhook_event (
    id            uuid primary key,
    type          varchar(128) not null,
    aggregate_id  varchar(256) not null,
    partner_id    varchar(64),
    body          text not null,
    created_at    timestamptz not null default now()
);

create table webhook_delivery (
    id                   uuid primary key,
    seq                  bigserial not null unique,
    subscription_id      uuid not null references webhook_subscription (id) on delete cascade,
    event_id             uuid not null references webhook_event (id),
    -- Deliveries with the same key (one resource) go out one at a time, in seq order.
    ordering_key         varchar(300) not null,
    status               varchar(16) not null default 'pending',
    attempts             int not null default 0,
    schedule_index       int not null default 0,
    next_attempt_at      timestamptz not null default now(),
    lease_until          timestamptz,
    manual               boolean not null default false,
    last_response_code   int,
    last_error           varchar(512),
    created_at           timestamptz not null default now(),
    completed_at         timestamptz,
    unique (subscription_id, event_id)
);

create index webhook_delivery_due on webhook_delivery (next_attempt_at) where status = 'pending';
create index webhook_delivery_order on webhook_delivery (subscription_id, ordering_key, seq) where status = 'pending';
create index webhook_delivery_log on webhook_delivery (subscription_id, seq desc);

create table webhook_attempt (
    id             bigserial primary key,
    delivery_id    uuid not null references webhook_delivery (id) on delete cascade,
    attempt        int not null,
    manual         boolean not null,
    started_at     timestamptz not null,
    outcome        varchar(16) not null,
    response_code  int,
    latency_ms     int not null,
    error          varchar(512)
);

create index webhook_attempt_delivery on webhook_attempt (delivery_id, id);
