-- Anchoring on several chains (issue 31): every transition after creation is anchored on each chain of
-- ANCHOR_CHAINS by that chain's anchor-service deployment, so one transition has one anchor per chain.
-- mandate_transition's anchor_* columns keep the anchor on the primary chain (the EIP-712 domain's, the first of
-- ANCHOR_CHAINS); this table holds every chain's, the primary's included.
create table transition_anchor (
    transition_id uuid not null references mandate_transition (id),
    chain_id      bigint not null,
    tx_hash       varchar(66) not null,
    block_number  bigint not null,
    log_index     int,
    contract      varchar(42),
    signer        varchar(42),
    anchored_at   timestamptz not null,
    primary key (transition_id, chain_id)
);

-- Every anchor recorded before: one chain's, the one on the transition row.
insert into transition_anchor (transition_id, chain_id, tx_hash, block_number, log_index, contract, signer, anchored_at)
select id, anchor_chain_id, anchor_tx_hash, anchor_block_number, anchor_log_index, anchor_contract, anchor_signer,
       coalesce(anchored_at, created_at)
from mandate_transition
where anchor_tx_hash is not null and anchor_chain_id is not null and anchor_block_number is not null;
