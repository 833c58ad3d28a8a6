-- x402 pay-per-call payments. payment_key is the replay guard: an EIP-3009 authorization (chain, token,
-- authorizer, nonce) or a Solana transaction signature is taken at most once while not FAILED.
create table x402_payment (
    id               uuid primary key,
    payment_key      varchar(256) not null unique,
    capability       varchar(16) not null check (capability in ('invoice', 'settle')),
    x402_version     smallint not null,
    network          varchar(64) not null,
    payer            varchar(128),
    pay_to           varchar(128) not null,
    asset            varchar(128) not null,
    amount_atomic    numeric(30, 0) not null,
    valid_before     timestamptz,
    nonce            varchar(80),
    state            varchar(16) not null check (state in ('SETTLING', 'SETTLED', 'COMPLETED', 'FAILED')),
    request          jsonb not null,
    tx_hash          varchar(128),
    invoice_id       uuid,
    failure_code     varchar(64),
    failure_message  varchar(500),
    created_at       timestamptz not null,
    updated_at       timestamptz not null
);

-- The reconciler's work list: payments whose outcome or result is still open.
create index x402_payment_open on x402_payment (updated_at) where state in ('SETTLING', 'SETTLED');
create index x402_payment_invoice on x402_payment (invoice_id);
