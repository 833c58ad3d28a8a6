-- The raw PostgreSQL ceiling for POST /v1/mandates: the same three rows in one transaction
-- (mandate, its creation transition, its outbox event; the outbox has no trigger since platform V1.2), with sizes like the
-- bench scenario's. Run by bench/pgbench/ceiling.sh against a copy of mandate-service's schema.
\set n random(1, 9000000000000)
BEGIN;
INSERT INTO mandate (id, partner_id, proposer_agent_id, counterparty_agent_id, scope, terms, context, state,
    proto_mandate_hash, proto_version, expires_at, created_at, updated_at)
VALUES ('mnd_' || (:client_id::int) || '_' || (:n::bigint), 'partner_bench', 'agent-proposer-' || (:n::bigint), 'agent-counterparty-' || (:n::bigint),
    'data-labeling', '{"amount":"125.50","currency":"USDC","deliverables":["labels"],"sla_hours":24}', null,
    'proposed', '0x' || md5(:n::text) || md5(((:n::bigint) + 1)::text), '1', now() + interval '1 day', now(), now());
INSERT INTO mandate_transition (id, mandate_id, seq, from_state, to_state, metadata, created_at)
VALUES (gen_random_uuid(), 'mnd_' || (:client_id::int) || '_' || (:n::bigint), 0, null, 'proposed', '{}', now());
INSERT INTO outbox_event (id, topic, aggregate_id, partner_id, type, payload)
VALUES (gen_random_uuid(), 'mandate-events', 'mnd_' || (:client_id::int) || '_' || (:n::bigint), 'partner_bench', 'mandate.proposed',
    repeat('x', 900));
COMMIT;
