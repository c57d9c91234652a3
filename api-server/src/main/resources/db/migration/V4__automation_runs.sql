-- One row per run: written (with the payload) before the trigger is answered, then mirrored from
-- the workflow by the recorder activity.
create table automation_run (
    id               uuid primary key,
    tenant_id        uuid        not null references tenant (id),
    sequence_id      uuid        not null,
    canvas_version   integer     not null,
    trigger_node_id  text        not null,
    -- where the walk starts: the trigger, or the failed node of the run this one retries
    start_node_id    text        not null,
    trigger_payload  jsonb       not null,
    status           text        not null default 'running'
        check (status in ('running', 'completed', 'failed', 'cancelled')),
    error            text,
    workflow_id      text        not null,
    -- false until Temporal accepted the workflow; the reconciler starts such rows
    workflow_started boolean     not null default false,
    idempotency_key  text,
    retry_of         uuid references automation_run (id),
    started_at       timestamptz not null default now(),
    completed_at     timestamptz,
    created_at       timestamptz not null default now(),
    foreign key (tenant_id, sequence_id) references sequence (tenant_id, id)
);
create index automation_run_newest on automation_run (tenant_id, created_at desc, id desc);
create index automation_run_by_sequence on automation_run (tenant_id, sequence_id, created_at desc);
create index automation_run_unstarted on automation_run (created_at) where not workflow_started;
create unique index automation_run_idempotency
    on automation_run (tenant_id, trigger_node_id, idempotency_key) where idempotency_key is not null;

create table run_node_log (
    run_id       uuid        not null references automation_run (id),
    tenant_id    uuid        not null references tenant (id),
    seq          integer     not null,
    node_id      text        not null,
    node_type    text        not null,
    status       text        not null,
    started_at   text        not null,
    completed_at text,
    output       jsonb,
    error        text,
    primary key (run_id, seq)
);
