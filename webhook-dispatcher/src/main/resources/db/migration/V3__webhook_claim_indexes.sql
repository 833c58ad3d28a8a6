-- The claim walks each subscription's due deliveries in order and counts attempts in flight.
create index webhook_delivery_sub_due on webhook_delivery (subscription_id, next_attempt_at, seq) where status = 'pending';
create index webhook_delivery_leased on webhook_delivery (subscription_id) where status = 'pending' and lease_until is not null;
