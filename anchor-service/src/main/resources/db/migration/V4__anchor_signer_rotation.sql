-- Signer rotation (issue 31): several signer keys over time, each with its own nonce sequence.
-- A transaction is now identified by (signer, nonce): a new signer starts again at nonce 0.

alter table anchor_intent drop constraint anchor_intent_tx_nonce_fkey;
alter table anchor_tx drop constraint anchor_tx_pkey;
alter table anchor_tx add primary key (signer, nonce);
drop index if exists anchor_tx_open;
create index anchor_tx_open on anchor_tx (signer, nonce) where status = 'SIGNED';

-- What a transaction does: ANCHOR carries intents; AUTHORISE is addSigner(next) signed by the outgoing
-- signer; RETIRE is removeSigner(old) signed by the incoming one (the two ends of a rotation's overlap).
alter table anchor_tx add column kind varchar(16) not null default 'ANCHOR'
    check (kind in ('ANCHOR', 'AUTHORISE', 'RETIRE'));

-- The intent's transaction is (tx_signer, tx_nonce); existing bindings take their transaction's signer.
alter table anchor_intent add column tx_signer varchar(42);
update anchor_intent i set tx_signer = t.signer from anchor_tx t where t.nonce = i.tx_nonce;
alter table anchor_intent add constraint anchor_intent_tx_fkey foreign key (tx_signer, tx_nonce)
    references anchor_tx (signer, nonce);
drop index if exists anchor_intent_tx;
create index anchor_intent_tx on anchor_intent (tx_signer, tx_nonce, batch_index);

-- Every receipt names the signer that sent its transaction; existing receipts take it from their transaction.
alter table anchor_receipt add column signer varchar(42);
update anchor_receipt r set signer = t.signer from anchor_tx t where t.tx_hash = r.tx_hash;

-- One row per rotation. AUTHORISING: the outgoing signer still signs batches, its addSigner(next) is sent;
-- DRAINING: the next signer signs, the outgoing one's open transactions are confirmed; RETIRING: the next
-- signer's removeSigner(old) is sent; DONE. At most one rotation is open.
create table anchor_rotation (
    id              bigserial primary key,
    from_signer     varchar(42) not null,
    to_signer       varchar(42) not null,
    chain_id        bigint not null,
    contract        varchar(42) not null,
    status          varchar(16) not null check (status in ('AUTHORISING', 'DRAINING', 'RETIRING', 'DONE')),
    requested_at    timestamptz not null default now(),
    authorise_nonce bigint,
    authorised_tx   varchar(66),
    authorised_block bigint,
    switched_at     timestamptz,
    retire_nonce    bigint,
    retired_tx      varchar(66),
    retired_block   bigint,
    done_at         timestamptz,
    check (from_signer <> to_signer)
);
create unique index anchor_rotation_one_open on anchor_rotation ((true)) where status <> 'DONE';
