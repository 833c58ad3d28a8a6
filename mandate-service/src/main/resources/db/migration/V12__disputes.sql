-- Disputes that end (issue 30): a dispute case per disputed mandate, the evidence of each party, and the
-- resolution (the arbiter's split or the deadline's refund to the funder). `disputed` is no longer terminal:
-- it moves to `resolved` (terminal). Every change of a case is made by a transaction that holds the mandate row
-- locked (select ... for update), like every state change of the mandate.
create table mandate_dispute (
    mandate_id              varchar(40) primary key references mandate (id),
    partner_id              varchar(64) not null,
    reason                  text not null,
    opened_by               varchar(256) not null,
    opened_at               timestamptz not null,
    deadline_at             timestamptz not null,
    status                  varchar(16) not null,
    outcome                 varchar(24),
    to_counterparty_atomic  numeric(38, 0),
    to_proposer_atomic      numeric(38, 0),
    note                    text,
    resolved_at             timestamptz,
    resolution_transition   uuid,
    constraint dispute_status check (status in ('open', 'resolved')),
    constraint dispute_outcome check ((status = 'open') = (outcome is null)
                                      and (outcome is null or outcome in ('arbiter', 'deadline_refund'))),
    constraint dispute_amounts check (to_counterparty_atomic is null or (to_counterparty_atomic >= 0 and to_proposer_atomic >= 0))
);
-- the deadline job looks only at open cases, oldest deadline first
create index mandate_dispute_due on mandate_dispute (deadline_at) where status = 'open';

-- One piece of evidence: stored with its SHA-256 and anchored like a transition (its own mandate_transition row,
-- disputed -> disputed, whose id is transition_id).
create table mandate_dispute_evidence (
    id             varchar(40) primary key,
    mandate_id     varchar(40) not null references mandate_dispute (mandate_id),
    seq            int not null,
    party          varchar(64) not null,
    body           text not null,
    links          text not null,          -- JSON array of the links as sent
    sha256         varchar(66) not null,
    submitted_by   varchar(256) not null,
    transition_id  uuid not null unique references mandate_transition (id),
    created_at     timestamptz not null,
    unique (mandate_id, seq)
);

-- Mandates disputed before this version were terminal with a reason and nothing else: each gets an open case, with
-- the reason and time it was disputed, and a deadline 14 days after the later of its dispute and this migration,
-- so its parties get the whole window to present evidence before the deadline refunds the funder.
insert into mandate_dispute (mandate_id, partner_id, reason, opened_by, opened_at, deadline_at, status)
select m.id, m.partner_id, coalesce(m.dispute_reason, ''),
       coalesce((select t.metadata::jsonb ->> 'triggered_by' from mandate_transition t
                 where t.mandate_id = m.id and t.to_state = 'disputed' order by t.seq desc limit 1), 'system'),
       coalesce(m.disputed_at, m.updated_at),
       greatest(coalesce(m.disputed_at, m.updated_at), now()) + interval '14 days',
       'open'
from mandate m
where m.state = 'disputed'
on conflict (mandate_id) do nothing;
