create table tenant (
    id          uuid primary key,
    name        text        not null,
    -- the single tenant created by first-run bootstrap
    is_default  boolean     not null default false,
    created_at  timestamptz not null default now()
);
create unique index tenant_one_default on tenant (is_default) where is_default;

create table api_key (
    id                    uuid primary key,
    tenant_id             uuid        not null references tenant (id),
    name                  text        not null,
    -- first characters of the key, shown in listings so a user can tell keys apart
    prefix                text        not null,
    -- SHA-256 (hex) of the whole key; the plaintext is never stored
    key_hash              text        not null unique,
    scopes                text[]      not null,
    rate_limit_per_minute integer,
    created_at            timestamptz not null default now(),
    last_used_at          timestamptz,
    revoked_at            timestamptz
);
create index api_key_by_tenant on api_key (tenant_id, created_at desc);

create table audit_log (
    id          bigint generated always as identity primary key,
    tenant_id   uuid        not null references tenant (id),
    api_key_id  uuid references api_key (id),
    -- api_key for tenant calls, admin for calls with the admin token
    actor       text        not null,
    method      text        not null,
    path        text        not null,
    status      integer     not null,
    created_at  timestamptz not null default now()
);
create index audit_log_by_tenant on audit_log (tenant_id, id desc);
