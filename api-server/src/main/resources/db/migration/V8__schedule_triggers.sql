-- The schedule workflows that should run: one row per schedule_trigger of an active automation.
-- Changes to the automation set state 'starting' (start or restart the workflow) or 'stopping'
-- (terminate it, then delete the row) in their own transaction; after the commit, and again from
-- a reconciler when Temporal was unreachable, the workflow is made to match.
create table schedule_trigger (
    tenant_id      uuid        not null references tenant (id),
    node_id        text        not null,
    sequence_id    uuid        not null,
    canvas_version integer     not null,
    config         jsonb       not null,
    state          text        not null check (state in ('starting', 'running', 'stopping')),
    updated_at     timestamptz not null default now(),
    primary key (tenant_id, node_id),
    foreign key (tenant_id, sequence_id) references sequence (tenant_id, id)
);
create index schedule_trigger_pending on schedule_trigger (updated_at) where state <> 'running';
