-- Partners: mandate-service administers them and owns their mandate signing secrets.
-- API keys are stored only as their SHA-256 (ApiKeys.hash); one valid key per partner.
create table partner (
    id              varchar(64) primary key,
    name            varchar(200) not null,
    status          varchar(16) not null,
    api_key_hash    char(64) not null unique,
    signing_secret  varchar(512) not null,
    created_at      timestamptz not null,
    updated_at      timestamptz not null
);

-- Mandates. terms is the canonical JSON text returned by CanonicalMandate.canonicalTerms at creation,
-- stored as text (never jsonb) so the signed bytes can be rebuilt exactly; context is opaque JSON text.
create table mandate (
    id                         varchar(40) primary key,
    partner_id                 varchar(64) not null,
    proposer_agent_id          varchar(256) not null,
    counterparty_agent_id      varchar(256) not null,
    scope                      text not null,
    terms                      text not null,
    context                    text,
    state                      varchar(24) not null,
    proto_mandate_hash         varchar(66) not null,
    proto_version              varchar(16) not null,
    proposer_signature         varchar(128),
    counterparty_signature     varchar(128),
    signed_by_proposer_at      timestamptz,
    signed_by_counterparty_at  timestamptz,
    completed_at               timestamptz,
    dispute_reason             text,
    disputed_at                timestamptz,
    expires_at                 timestamptz not null,
    drs_receipt_id             varchar(40),
    created_at                 timestamptz not null,
    updated_at                 timestamptz not null
);

create index mandate_partner on mandate (partner_id, created_at);
-- The expiry job scans only live mandates, oldest expiry first.
create index mandate_live_expiry on mandate (expires_at)
    where state in ('proposed', 'signed_by_proposer', 'signed_by_both', 'in_progress');

create table mandate_transition (
    id                   uuid primary key,
    mandate_id           varchar(40) not null references mandate (id),
    seq                  int not null,
    from_state           varchar(24),
    to_state             varchar(24) not null,
    metadata             text not null,
    anchor_tx_hash       varchar(66),
    anchor_block_number  bigint,
    anchor_chain_id      bigint,
    anchored_at          timestamptz,
    created_at           timestamptz not null,
    unique (mandate_id, seq)
);

-- A DRS receipt: issued once, when the counterparty's signature completes the mandate's signing.
create table receipt (
    id                         varchar(40) primary key,
    mandate_id                 varchar(40) not null unique references mandate (id),
    partner_id                 varchar(64) not null,
    mandate_hash               varchar(66) not null,
    proposer_signature         varchar(128) not null,
    counterparty_signature     varchar(128) not null,
    signed_by_proposer_at      timestamptz not null,
    signed_by_counterparty_at  timestamptz not null,
    issued_at                  timestamptz not null
);

-- Stored responses of POSTs sent with an Idempotency-Key, per partner, replayed for 24 hours.
create table idempotency_record (
    partner_id    varchar(64) not null,
    idem_key      varchar(255) not null,
    request_hash  char(64) not null,
    status        int not null,
    body          text not null,
    created_at    timestamptz not null,
    primary key (partner_id, idem_key)
);

create index idempotency_record_age on idempotency_record (created_at);
