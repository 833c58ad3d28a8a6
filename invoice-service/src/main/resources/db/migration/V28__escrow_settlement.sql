-- Charges paid from a mandate's escrow (issue 30): the ref under which mandate-service asks the escrow contract to
-- release a charge's amount (keccak-256 of the charge id), so the escrow's Released event finds its invoice. Filled when a
-- charge's invoice is created; invoices of charges made before this version have none (no release is ever sent for
-- them: releases are sent only when a charge's invoice is linked).
alter table invoice add column escrow_ref varchar(66);
create unique index invoice_escrow_ref on invoice (escrow_ref) where escrow_ref is not null;
