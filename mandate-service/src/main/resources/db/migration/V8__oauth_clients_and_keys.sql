-- OAuth 2.0 client credentials beside API keys (mandate-service README, "OAuth 2.0").

-- The scopes a partner's API key may use; null: every scope (the behaviour before scopes existed).
alter table partner add column api_key_scopes text[];

-- A partner's OAuth clients. The secret is stored only as its SHA-256 (32 random bytes: as API keys).
create table oauth_client (
    client_id     varchar(64) primary key,
    partner_id    varchar(64) not null references partner (id),
    name          varchar(200) not null,
    secret_hash   char(64) not null,
    scopes        text[] not null,
    status        varchar(16) not null,
    created_at    timestamptz not null,
    revoked_at    timestamptz
);
create index oauth_client_partner on oauth_client (partner_id, created_at);

-- The access tokens' signing keys (ES256). One signs (retired_at null); a retired key stays published in the
-- JWK set until publish_until (its last token's expiry), so two keys are published during a rotation.
create table oauth_signing_key (
    kid            varchar(64) primary key,
    private_jwk    text not null,
    public_jwk     text not null,
    created_at     timestamptz not null,
    retired_at     timestamptz,
    publish_until  timestamptz
);
create unique index oauth_signing_key_current on oauth_signing_key ((true)) where retired_at is null;
