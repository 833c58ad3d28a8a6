-- Shared by every service: the transactional outbox and the idempotent-consumer ledger.

create table outbox_event (
    id            uuid primary key,
    seq           bigserial not null unique,
    topic         varchar(128) not null,
    aggregate_id  varchar(256) not null,
    partner_id    varchar(64),
    type          varchar(128) not null,
    payload       text not null,
    created_at    timestamptz not null default now(),
    published_at  timestamptz
);

create index outbox_event_unpublished on outbox_event (seq) where published_at is null;

-- Wake the relay on commit instead of waiting for its next poll.
create function outbox_event_notify() returns trigger language plpgsql as $$
begin
    perform pg_notify('outbox_event', '');
    return null;
end $$;

create trigger outbox_event_inserted after insert on outbox_event
    for each statement execute function outbox_event_notify();

create table processed_event (
    event_id      uuid not null,
    consumer      varchar(128) not null,
    processed_at  timestamptz not null default now(),
    primary key (event_id, consumer)
);
