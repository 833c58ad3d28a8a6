-- MandateEscrow (issue 30). Every event of a chain's escrow contract the watcher published on escrow-events, with
-- the same reorg bookkeeping as detected_transfer: DETECTED while on the chain, RETRACTED when a reorg removed it
-- (then escrow.rolled_back names published_event_id); back with a new event id if it is mined again.
create table escrow_event (
    log_id              varchar(256) primary key,          -- chain:txHash:logIndex
    chain               varchar(16) not null,
    contract            varchar(64) not null,
    escrow_id           varchar(80) not null,
    mandate_hash        varchar(80) not null,
    kind                varchar(16) not null,
    tx_hash             varchar(128) not null,
    log_index           integer not null,
    block_number        bigint not null,
    block_hash          varchar(128) not null,
    status              varchar(16) not null check (status in ('DETECTED', 'RETRACTED')),
    published_event_id  uuid not null,                     -- id of its latest escrow-events publication
    detected_at         timestamptz not null,
    retracted_at        timestamptz
);

create index escrow_event_live on escrow_event (chain, block_number) where status = 'DETECTED';
create index escrow_event_escrow on escrow_event (escrow_id);
