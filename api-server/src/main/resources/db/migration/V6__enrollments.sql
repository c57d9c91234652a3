-- A contact's enrollment in a sequence: one row per (tenant, sequence, contact), reused when the
-- contact is enrolled again. run_id is the enrollment's current run (its node log is the progress).
create table enrollment (
    id           uuid primary key,
    tenant_id    uuid        not null references tenant (id),
    sequence_id  uuid        not null,
    contact_id   uuid        not null,
    status       text        not null default 'active'
        check (status in ('active', 'completed', 'failed', 'unenrolled')),
    run_id       uuid        not null,
    enrolled_at  timestamptz not null default now(),
    ended_at     timestamptz,
    updated_at   timestamptz not null default now(),
    unique (tenant_id, sequence_id, contact_id),
    foreign key (tenant_id, sequence_id) references sequence (tenant_id, id),
    foreign key (tenant_id, contact_id) references contact (tenant_id, id)
);
create index enrollment_by_sequence on enrollment (tenant_id, sequence_id, enrolled_at desc, id desc);

-- Set for the runs of enrollments: their workflow is an EnrollmentWorkflow, and their end ends the
-- enrollment.
alter table automation_run add column enrollment_id uuid references enrollment (id);
