-- processed_event stops growing (issue 34): ProcessedEventPruner deletes marks older than their consumer's retention in
-- small batches. A BRIN index on processed_at (rows arrive in time order) finds them without a scan of the whole table
-- and costs inserts almost nothing, unlike a B-tree on the hottest insert path.
create index processed_event_processed_at on processed_event using brin (processed_at);
