-- Finished deliveries are kept for webhook.history.retention (30 days by default) and then deleted in small
-- batches, oldest completion first (DeliveryHistoryPruner); this index finds them without a scan.
create index webhook_delivery_completed on webhook_delivery (completed_at) where status <> 'pending';
