-- Invoices expire: every new invoice has expires_at (the request's expiresAt, else created_at plus
-- invoice.expiry.default-ttl). InvoiceExpiry moves PENDING invoices past it to EXPIRED with an
-- invoice.expired event; a payment arriving afterwards is credited as paid late (README "Expiry").
-- Invoices created before this migration keep expires_at null: they never expire (their payers were
-- told no deadline).
alter table invoice add column expires_at timestamptz;
create index invoice_expiring on invoice (expires_at) where status = 'PENDING' and expires_at is not null;
