create table sequence (
    id              uuid primary key,
    tenant_id       uuid        not null references tenant (id),
    name            text        not null,
    description     text,
    builder_mode    text        not null default 'linear' check (builder_mode in ('linear', 'visual')),
    flow_type       text        not null default 'sequence' check (flow_type in ('sequence', 'automation')),
    status          text        not null default 'draft' check (status in ('draft', 'active', 'paused', 'archived')),
    -- the latest canvas version (0: no canvas saved yet)
    current_version integer     not null default 0,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    unique (tenant_id, id),
    check (flow_type = 'sequence' or builder_mode = 'visual')
);
create index sequence_newest on sequence (tenant_id, created_at desc, id desc);

-- Every change to a canvas stores a new immutable snapshot; runs pin the version they start with.
create table canvas_version (
    tenant_id   uuid        not null,
    sequence_id uuid        not null,
    version     integer     not null,
    -- nodes as the API shows them: {id, type, position, data, created_at, updated_at}
    nodes       jsonb       not null,
    edges       jsonb       not null,
    created_at  timestamptz not null default now(),
    primary key (sequence_id, version),
    foreign key (tenant_id, sequence_id) references sequence (tenant_id, id)
);

-- Trigger nodes of every sequence's latest canvas: node ids of triggers are unique per tenant,
-- and the public trigger endpoint finds its automation here.
create table trigger_node (
    tenant_id   uuid not null,
    node_id     text not null,
    sequence_id uuid not null,
    node_type   text not null,
    primary key (tenant_id, node_id),
    foreign key (tenant_id, sequence_id) references sequence (tenant_id, id)
);
create index trigger_node_by_sequence on trigger_node (sequence_id);

create table email_template (
    id         uuid primary key,
    tenant_id  uuid        not null references tenant (id),
    name       text        not null,
    subject    text        not null,
    html_body  text,
    text_body  text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (tenant_id, id)
);
create index email_template_newest on email_template (tenant_id, created_at desc, id desc);
