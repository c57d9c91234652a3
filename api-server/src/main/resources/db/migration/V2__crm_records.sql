-- CRM records. Every table is tenant-owned; references between records carry the tenant in
-- composite foreign keys, so the database itself refuses a link across tenants.
create extension if not exists pg_trgm;

create table account (
    id            uuid primary key,
    tenant_id     uuid        not null references tenant (id),
    name          text        not null,
    domain        text,
    industry      text,
    custom_fields jsonb       not null default '{}',
    created_at    timestamptz not null default now(),
    updated_at    timestamptz not null default now(),
    unique (tenant_id, id)
);
create unique index account_name_per_tenant on account (tenant_id, lower(name));
create index account_newest on account (tenant_id, created_at desc, id desc);

create table contact (
    id                       uuid primary key,
    tenant_id                uuid        not null references tenant (id),
    -- stored trimmed and lower-cased: the upsert key
    email                    text        not null,
    first_name               text,
    last_name                text,
    phone                    text,
    mobile_phone             text,
    company                  text,
    title                    text,
    department               text,
    industry                 text,
    lead_source              text,
    lead_status              text,
    lifecycle_stage          text,
    address_city             text,
    address_state            text,
    address_country          text,
    timezone                 text,
    preferred_contact_method text,
    do_not_call              boolean     not null default false,
    do_not_email             boolean     not null default false,
    do_not_sms               boolean     not null default false,
    account_id               uuid,
    custom_fields            jsonb       not null default '{}',
    created_at               timestamptz not null default now(),
    updated_at               timestamptz not null default now(),
    -- what ?search= matches: first, last and full name, email, company
    search_text              text generated always as (
        lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || email || ' '
              || coalesce(company, ''))) stored,
    unique (tenant_id, id),
    foreign key (tenant_id, account_id) references account (tenant_id, id)
);
create unique index contact_email_per_tenant on contact (tenant_id, email);
create index contact_newest on contact (tenant_id, created_at desc, id desc);
create index contact_search on contact using gin (search_text gin_trgm_ops);

create table opportunity (
    id            uuid primary key,
    tenant_id     uuid        not null references tenant (id),
    name          text        not null,
    stage         text,
    value         numeric(18, 2),
    probability   numeric(5, 2),
    close_date    date,
    lead_source   text,
    description   text,
    next_step     text,
    contact_id    uuid,
    account_id    uuid,
    custom_fields jsonb       not null default '{}',
    closed_at     timestamptz,
    lost_reason   text,
    created_at    timestamptz not null default now(),
    updated_at    timestamptz not null default now(),
    unique (tenant_id, id),
    foreign key (tenant_id, contact_id) references contact (tenant_id, id),
    foreign key (tenant_id, account_id) references account (tenant_id, id)
);
create index opportunity_newest on opportunity (tenant_id, created_at desc, id desc);

create table custom_field (
    id          uuid primary key,
    tenant_id   uuid        not null references tenant (id),
    object_type text        not null check (object_type in ('contact', 'account', 'opportunity', 'conversation')),
    field_key   text        not null,
    field_label text        not null,
    field_type  text        not null check (field_type in ('text', 'long_text', 'number', 'currency', 'date',
                                                           'dropdown', 'multi_select', 'checkbox', 'email',
                                                           'phone', 'url')),
    options     jsonb,
    is_required boolean     not null default false,
    section     text,
    description text,
    created_at  timestamptz not null default now(),
    unique (tenant_id, object_type, field_key)
);

create table conversation (
    id               uuid primary key,
    tenant_id        uuid        not null references tenant (id),
    contact_id       uuid        not null,
    channel          text        not null,
    subject          text,
    status           text        not null default 'active',
    override_status  text        not null default 'ai_active',
    starred          boolean     not null default false,
    tags             text[]      not null default '{}',
    last_activity_at timestamptz not null default now(),
    created_at       timestamptz not null default now(),
    unique (tenant_id, id),
    foreign key (tenant_id, contact_id) references contact (tenant_id, id)
);
create index conversation_newest on conversation (tenant_id, last_activity_at desc, id desc);
create index conversation_by_contact on conversation (tenant_id, contact_id, last_activity_at desc);

create table message (
    id              uuid primary key,
    tenant_id       uuid        not null references tenant (id),
    conversation_id uuid        not null,
    direction       text        not null check (direction in ('inbound', 'outbound')),
    content         text        not null,
    created_at      timestamptz not null default now(),
    foreign key (tenant_id, conversation_id) references conversation (tenant_id, id)
);
create index message_by_conversation on message (tenant_id, conversation_id, created_at, id);

create table note (
    id             uuid primary key,
    tenant_id      uuid        not null references tenant (id),
    content        text        not null,
    contact_id     uuid,
    opportunity_id uuid,
    account_id     uuid,
    created_at     timestamptz not null default now(),
    check (contact_id is not null or opportunity_id is not null or account_id is not null),
    foreign key (tenant_id, contact_id) references contact (tenant_id, id),
    foreign key (tenant_id, opportunity_id) references opportunity (tenant_id, id),
    foreign key (tenant_id, account_id) references account (tenant_id, id)
);
create index note_newest on note (tenant_id, created_at desc, id desc);

create table task (
    id             uuid primary key,
    tenant_id      uuid        not null references tenant (id),
    title          text        not null,
    description    text,
    due_date       date,
    status         text        not null default 'open' check (status in ('open', 'completed', 'cancelled')),
    contact_id     uuid,
    opportunity_id uuid,
    account_id     uuid,
    completed_at   timestamptz,
    created_at     timestamptz not null default now(),
    updated_at     timestamptz not null default now(),
    foreign key (tenant_id, contact_id) references contact (tenant_id, id),
    foreign key (tenant_id, opportunity_id) references opportunity (tenant_id, id),
    foreign key (tenant_id, account_id) references account (tenant_id, id)
);
create index task_newest on task (tenant_id, created_at desc, id desc);

-- Events, written in the same transaction as the change that caused them; a dispatcher
-- (later) moves them to Temporal and marks them dispatched.
create table event_outbox (
    id            bigint generated always as identity primary key,
    tenant_id     uuid        not null references tenant (id),
    event_id      uuid        not null unique,
    event         text        not null,
    -- the envelope exactly as delivered: {event, timestamp, tenant_id, data}
    envelope      jsonb       not null,
    created_at    timestamptz not null default now(),
    dispatched_at timestamptz
);
create index event_outbox_pending on event_outbox (tenant_id, id) where dispatched_at is null;
