-- The index from a record to the runs that wait for its events (a wait_until node, see
-- recordwatch/RecordWatches): one row per run and watcher, entered when the run starts waiting and
-- taken out when it stops. event null: every event about the record.
create table record_watch (
    run_id       uuid        not null references automation_run (id),
    watcher      text        not null,
    tenant_id    uuid        not null,
    record_type  text        not null,
    record_id    text        not null,
    event        text,
    filter_field text,
    filter_value text,
    workflow_id  text        not null,
    created_at   timestamptz not null default now(),
    primary key (run_id, watcher)
);
create index record_watch_by_record on record_watch (tenant_id, record_type, record_id);

-- The events routed to a watching run, stored in the dispatch transaction of each event, in outbox
-- order; delivered_at once its workflow has it (a signal, or the answer of a watch entered again).
create table record_event_delivery (
    run_id       uuid        not null references automation_run (id),
    watcher      text        not null,
    event_id     uuid        not null,
    outbox_id    bigint      not null,
    envelope     jsonb       not null,
    workflow_id  text        not null,
    delivered_at timestamptz,
    attempts     integer     not null default 0,
    last_error   text,
    created_at   timestamptz not null default now(),
    primary key (run_id, watcher, event_id)
);
create index record_event_delivery_pending on record_event_delivery (created_at)
    where delivered_at is null;
