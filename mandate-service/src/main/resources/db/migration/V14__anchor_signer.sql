-- Signer rotation (issue 31): each anchored transition records the anchor signer that sent its transaction
-- (anchor.receipt's signer). Transitions anchored before keep null: their signer is the MandateAnchored log's
-- sender, which every verifier reads from the chain anyway (the proof's anchors[].signer is null for them).
alter table mandate_transition add column anchor_signer varchar(42);
