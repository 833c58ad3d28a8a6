-- Per-chain progress, the block hashes it was made on (for reorg detection) and every transfer published.

create table chain_checkpoint (
    chain         varchar(80) primary key,
    block_number  bigint not null,
    block_hash    varchar(128),
    cursor        varchar(256),
    updated_at    timestamptz not null
);

create table seen_block (
    chain         varchar(16) not null,
    block_number  bigint not null,
    block_hash    varchar(128) not null,
    primary key (chain, block_number)
);

create table detected_transfer (
    transfer_id   varchar(256) primary key,
    chain         varchar(16) not null,
    tx_hash       varchar(128) not null,
    log_index     integer not null,
    block_number  bigint not null,
    block_hash    varchar(128),
    from_address  varchar(128),
    to_address    varchar(128) not null,
    token         varchar(128) not null,
    amount        numeric(78, 0) not null,
    memo          varchar(1024),
    status        varchar(16) not null check (status in ('DETECTED', 'RETRACTED')),
    detected_at   timestamptz not null,
    retracted_at  timestamptz
);

create index detected_transfer_live on detected_transfer (chain, block_number) where status = 'DETECTED';
