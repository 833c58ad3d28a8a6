-- Mandates with more than two parties (issue 28 item 5). A mandate created in the parties form keeps its
-- parties, in signing order, with each one's scheme and signature, as JSON text in `parties` (text, never
-- jsonb: the ids are signed and must come back exactly as written); the proposer columns mirror the first
-- party and the counterparty columns are null. Two-party mandates (every existing row) have `parties` null
-- and are unchanged.
alter table mandate add column parties text;
alter table mandate alter column counterparty_agent_id drop not null;
alter table mandate alter column counterparty_scheme drop not null;

-- The receipt of a parties-form mandate lists every party's signature (`parties`, the same JSON form);
-- its counterparty columns are null.
alter table receipt add column parties text;
alter table receipt alter column counterparty_signature drop not null;
alter table receipt alter column signed_by_counterparty_at drop not null;

-- The expiry job's index covers the two new live states.
drop index mandate_live_expiry;
create index mandate_live_expiry on mandate (expires_at)
    where state in ('proposed', 'signed_by_proposer', 'partially_signed', 'signed_by_both', 'signed_by_all', 'in_progress');
