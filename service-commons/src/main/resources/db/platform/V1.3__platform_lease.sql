-- Leases with fencing tokens (service-commons dev.agentpay.commons.lease, root README "Several instances").
-- One row per piece of work only one instance may do at a time (anchor-service's signer, a chain's scan and
-- sweeps in settlement-watcher). token grows by one every time the holder changes; an effect's transaction
-- locks the row (for share) and checks its token, so a frozen holder that wakes after the lease moved is
-- refused in the same transaction as its effect.
create table platform_lease (
    name        varchar(128) primary key,
    holder      varchar(128) not null,
    token       bigint not null,
    acquired_at timestamptz not null default now(),
    expires_at  timestamptz not null
);
