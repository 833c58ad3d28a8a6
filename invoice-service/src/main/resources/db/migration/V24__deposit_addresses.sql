-- Every EVM invoice gets its own payment address (a CREATE2 deposit address of the chain's
-- DepositFactory); transfers are attributed by destination address only, and payments add up.
--
-- address_kind: 'deposit' (the invoice's own EVM address), 'memo' (Solana: the seller wallet plus
-- the invoice's memo), 'seller' (an EVM invoice created before this change on the shared seller
-- wallet, attributed by a unique payable amount: that rule is retired).
alter table invoice add column address_kind varchar(16) not null default 'deposit'
    check (address_kind in ('deposit', 'memo', 'seller'));
update invoice set address_kind = 'memo' where chain = 'solana';
update invoice set address_kind = 'seller' where chain <> 'solana';

-- paid_atomic is now the running total received (partial payments add up), never null.
update invoice set paid_atomic = 0 where paid_atomic is null;
alter table invoice alter column paid_atomic set default 0;
alter table invoice alter column paid_atomic set not null;

-- EXPIRED: an invoice that can no longer be paid. Legacy EVM invoices still PENDING expire now: a
-- transfer to the shared seller wallet is no longer attributed to anything (see README "Invoices
-- created before per-invoice addresses").
alter table invoice drop constraint if exists invoice_status_check;
alter table invoice add constraint invoice_status_check check (status in ('PENDING', 'SETTLED', 'EXPIRED'));
alter table invoice add column expired_at timestamptz;
update invoice set status = 'EXPIRED', expired_at = now(), updated_at = now()
    where address_kind = 'seller' and status = 'PENDING';
update payable_reservation set released_at = now() where released_at is null;

-- One invoice per deposit address and chain (the attribution key); addresses compared in lower case.
create unique index invoice_deposit_address on invoice (chain, lower(payment_address)) where address_kind = 'deposit';

-- A transfer that counted toward an invoice without being the one that settled it (a partial payment,
-- a payment after settlement, a payment after expiry) is CREDITED.
alter table chain_transfer drop constraint if exists chain_transfer_status_check;
alter table chain_transfer add constraint chain_transfer_status_check
    check (status in ('SETTLED', 'CREDITED', 'UNMATCHED', 'RETRACTED'));
create index chain_transfer_invoice on chain_transfer (invoice_id) where invoice_id is not null;

-- x402 payment of an invoice (POST /v1/invoices/{id}/pay): capability 'pay'; its target invoice is
-- claimed with the payment, and an invoice has at most one pay in flight or done (a second concurrent
-- payment is refused before any money moves).
alter table x402_payment drop constraint if exists x402_payment_capability_check;
alter table x402_payment add constraint x402_payment_capability_check check (capability in ('invoice', 'settle', 'pay'));
create unique index x402_payment_pay_once on x402_payment (invoice_id) where capability = 'pay' and state <> 'FAILED';
