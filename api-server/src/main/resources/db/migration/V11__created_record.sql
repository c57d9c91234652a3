-- What each create_record node created, once per (run, node): the node run again (an activity
-- retried after its write committed, or a run resumed after a restart) answers with this record
-- instead of creating a second one.
create table created_record (
    run_id     uuid        not null references automation_run (id),
    node_id    text        not null,
    tenant_id  uuid        not null references tenant (id),
    output     jsonb       not null,
    created_at timestamptz not null default now(),
    primary key (run_id, node_id)
);
