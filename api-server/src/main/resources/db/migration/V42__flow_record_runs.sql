-- The records each flow that limits re-enrollment (settings.reenroll never or after) has started
-- runs for: one row per (flow, record), claimed in the transaction that stores the run, so two
-- starts for one record at the same instant, on any api-server, store one run (reenroll/Reenrollment).
-- record: 'contact:<id>' or 'opportunity:<id>'.
create table flow_record_run (
    sequence_id      uuid        not null,
    record           text        not null,
    tenant_id        uuid        not null,
    first_started_at timestamptz not null default now(),
    last_started_at  timestamptz not null default now(),
    last_run_id      uuid,
    runs             integer     not null default 1,
    primary key (sequence_id, record),
    foreign key (tenant_id, sequence_id) references sequence (tenant_id, id)
);
