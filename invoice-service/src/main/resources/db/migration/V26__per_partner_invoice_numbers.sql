-- invoiceNumber per partner (issue 22): the global sequence told every partner how many invoices all the
-- others created between two of its own (numbers and list cursors). Each partner now has its own counter,
-- allocated in the invoice's transaction (the counter row is locked until it commits, so a partner's
-- numbers have no gaps and follow creation order). Existing invoices keep their numbers (already printed
-- or stored by their partners); a partner's next number follows its highest one, so its list order and
-- the cursors it holds stay valid. New partners start at 1001.
create table partner_invoice_counter (
    partner_id  varchar(64) primary key,
    last_number bigint not null
);
insert into partner_invoice_counter (partner_id, last_number)
    select partner_id, max(invoice_number) from invoice group by partner_id;

-- Unique per partner, no longer across partners; this index also serves the newest-first pages.
alter table invoice drop constraint if exists invoice_invoice_number_key;
create unique index invoice_partner_number on invoice (partner_id, invoice_number);
drop index if exists invoice_partner_page;
drop sequence if exists invoice_number_seq;
