-- Verifiable mandates (spec v0.2): each party's signature scheme is fixed at creation. Existing mandates
-- are v0.1 HMAC mandates, which is what the defaults say; nothing else about them changes.
alter table mandate add column proposer_scheme varchar(16) not null default 'hmac';
alter table mandate add column counterparty_scheme varchar(16) not null default 'hmac';
-- The EIP-712 domain a wallet party signs (the anchor network and contract at creation); null when no
-- party is a wallet. Kept with the mandate so a later change of anchor contract leaves old proofs valid.
alter table mandate add column eip712_chain_id bigint;
alter table mandate add column eip712_contract varchar(42);
-- An EIP-712 signature is 0x + 130 hex digits.
alter table mandate alter column proposer_signature type varchar(132);
alter table mandate alter column counterparty_signature type varchar(132);
alter table receipt alter column proposer_signature type varchar(132);
alter table receipt alter column counterparty_signature type varchar(132);

-- Where exactly each anchor is: the contract that emitted the MandateAnchored log and the log's index in
-- its block. Null for receipts recorded before this change (anchor-service did not send the contract).
alter table mandate_transition add column anchor_log_index int;
alter table mandate_transition add column anchor_contract varchar(42);
