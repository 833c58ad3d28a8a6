-- anchor-service: intents to anchor, the signed transactions that carry them, the receipts, and the
-- signer's nonce. A transition id is unique everywhere, so an event delivered twice anchors once.

-- The next nonce of the single anchor signer; allocated in the transaction that stores the signed
-- transaction using it, so every allocated nonce has a stored transaction (no gaps).
create table signer_nonce (
    signer        varchar(42) primary key,
    next_nonce    bigint not null check (next_nonce >= 0),
    updated_at    timestamptz not null default now()
);

-- One signed transaction per nonce; raw bytes and hash are stored BEFORE the broadcast, so after a
-- crash the same bytes are broadcast again (same hash) or the receipt is found.
create table anchor_tx (
    nonce         bigint primary key,
    signer        varchar(42) not null,
    tx_hash       varchar(66) not null unique,
    raw_tx        text not null,
    item_count    int not null,
    gas_limit     bigint not null,
    max_fee_wei   numeric(78) not null,
    priority_wei  numeric(78) not null,
    -- SIGNED: stored, maybe broadcast; CONFIRMED: receipt recorded; FAILED: reverted or dropped (intents re-queued)
    status        varchar(16) not null check (status in ('SIGNED', 'CONFIRMED', 'FAILED')),
    created_at    timestamptz not null default now(),
    broadcast_at  timestamptz,
    block_number  bigint,
    detail        text
);

create index anchor_tx_open on anchor_tx (nonce) where status = 'SIGNED';

create table anchor_intent (
    transition_id varchar(128) primary key,
    event_id      uuid not null,
    mandate_id    varchar(128) not null,
    partner_id    varchar(64),
    mandate_hash  char(66) not null,
    state         varchar(32) not null,
    event_at      timestamptz not null,
    received_at   timestamptz not null default now(),
    -- PENDING: waiting for a batch; SENT: in anchor_tx(nonce) at position batch_index; ANCHORED: receipt stored
    status        varchar(16) not null check (status in ('PENDING', 'SENT', 'ANCHORED')),
    tx_nonce      bigint references anchor_tx (nonce),
    batch_index   int
);

create index anchor_intent_pending on anchor_intent (received_at) where status = 'PENDING';
create index anchor_intent_tx on anchor_intent (tx_nonce, batch_index);

create table anchor_receipt (
    transition_id varchar(128) primary key references anchor_intent (transition_id),
    mandate_id    varchar(128) not null,
    mandate_hash  char(66) not null,
    state         varchar(32) not null,
    chain_id      bigint not null,
    tx_hash       varchar(66) not null,
    block_number  bigint not null,
    log_index     int not null,
    recorded_at   timestamptz not null default now(),
    unique (tx_hash, log_index)
);
