-- Invoices made for a charge against a mandate's budget (issue 28): the mandate and the charge they belong to.
-- mandate-service creates them through PUT /admin/charges/{chargeId}/invoice, keyed by the charge id: one
-- invoice per charge, whatever the number of repeats (a crash or time-out between the two services).
alter table invoice add column mandate_id varchar(64);
alter table invoice add column charge_id varchar(64);
create unique index invoice_charge on invoice (charge_id) where charge_id is not null;
