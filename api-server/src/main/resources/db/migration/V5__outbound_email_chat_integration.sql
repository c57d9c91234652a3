-- Every email an automation sent (or captured, when no SMTP is configured): once per (run, node).
create table outbound_email (
    id          uuid primary key,
    tenant_id   uuid        not null references tenant (id),
    run_id      uuid        not null references automation_run (id),
    node_id     text        not null,
    message_id  text        not null,
    to_address  text        not null,
    subject     text        not null,
    text_body   text,
    html_body   text,
    status      text        not null check (status in ('sent', 'captured')),
    created_at  timestamptz not null default now(),
    unique (run_id, node_id)
);
create index outbound_email_newest on outbound_email (tenant_id, created_at desc, id desc);

-- A tenant's chat integration (Slack Web API shape). The bot token is stored encrypted
-- (AES-GCM, key from crm.secrets.key or the data directory) and never returned.
create table chat_integration (
    tenant_id        uuid primary key references tenant (id),
    provider         text        not null,
    token_ciphertext bytea       not null,
    token_hint       text        not null,
    base_url         text        not null,
    connected_at     timestamptz not null default now()
);
