-- What a create_record or chat_message node did, once per (run, node): the node run again (its
-- activity retried after the effect took place but its answer was lost, or its run resumed after
-- a restart) answers with this output instead of creating a second record or message.
create table node_effect (
    run_id     uuid        not null references automation_run (id),
    node_id    text        not null,
    tenant_id  uuid        not null references tenant (id),
    output     jsonb       not null,
    created_at timestamptz not null default now(),
    primary key (run_id, node_id)
);
