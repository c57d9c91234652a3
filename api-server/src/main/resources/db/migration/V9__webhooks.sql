-- Outbound webhook subscriptions: the signing secret is stored encrypted (SecretCipher).
create table webhook_subscription (
    id                uuid primary key,
    tenant_id         uuid        not null references tenant (id),
    url               text        not null,
    events            text[]      not null,
    secret_ciphertext bytea,
    is_active         boolean     not null default true,
    -- consecutive failed attempts; 10 disable the subscription
    failure_count     integer     not null default 0,
    last_triggered_at timestamptz,
    created_at        timestamptz not null default now(),
    updated_at        timestamptz not null default now()
);
create index webhook_subscription_by_tenant on webhook_subscription (tenant_id, created_at, id);

-- One delivery per (event, subscription), stored by the outbox dispatcher; body holds the exact
-- bytes sent (and signed) on every attempt.
create table webhook_delivery (
    id               uuid primary key,
    tenant_id        uuid        not null references tenant (id),
    subscription_id  uuid        not null references webhook_subscription (id) on delete cascade,
    event_id         uuid        not null,
    event            text        not null,
    body             text        not null,
    status           text        not null default 'pending'
        check (status in ('pending', 'delivered', 'failed', 'stopped')),
    attempts         integer     not null default 0,
    last_status_code integer,
    last_error       text,
    workflow_started boolean     not null default false,
    created_at       timestamptz not null default now(),
    completed_at     timestamptz,
    unique (subscription_id, event_id)
);
create index webhook_delivery_unstarted on webhook_delivery (created_at) where not workflow_started;
create index webhook_delivery_by_subscription on webhook_delivery (subscription_id, created_at desc);

-- Each attempt once: a repeated activity finds its attempt here and neither sends nor counts again.
create table webhook_delivery_attempt (
    delivery_id  uuid        not null references webhook_delivery (id) on delete cascade,
    attempt      integer     not null,
    result       text        not null,
    status_code  integer,
    error        text,
    attempted_at timestamptz not null default now(),
    primary key (delivery_id, attempt)
);
