-- Where a CONFIRMED sweep was mined, so that a reorg that takes it out of the chain is noticed: the
-- sweeper re-reads the receipts of recent confirmed sweeps, and one no longer in that block is put back
-- to SENT (its sweep_item rows removed: the money is back at the deposit addresses until it is mined again).
alter table sweep_batch add column block_number bigint;
alter table sweep_batch add column block_hash varchar(80);

create index sweep_batch_mined on sweep_batch (chain, block_number) where state = 'CONFIRMED';
