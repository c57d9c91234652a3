-- POST requests sent with an Idempotency-Key header, per tenant: a repeat of the same request
-- gets the first one's answer instead of doing it again (see IdempotencyInterceptor). Kept a day.
create table idempotent_request (
    tenant_id       uuid        not null references tenant (id),
    idempotency_key text        not null,
    fingerprint     text        not null,
    status          int,
    content_type    text,
    response_body   bytea,
    created_at      timestamptz not null default now(),
    completed_at    timestamptz,
    primary key (tenant_id, idempotency_key)
);

create index idempotent_request_created_at on idempotent_request (created_at);
