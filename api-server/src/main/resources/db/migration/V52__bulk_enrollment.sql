-- Bulk enrollments: a job that enrolls every contact a filter matches in a sequence, a page at a
-- time, from any api-server. The job's progress (its cursor, the last contact id of the page done)
-- commits with each page, so a job whose api-server died (its lease ran out) is taken on by the
-- next look of any api-server from where it was.
create table bulk_enrollment_job (
  id             uuid        primary key,
  tenant_id      uuid        not null references tenant (id),
  sequence_id    uuid        not null references sequence (id),
  filter         jsonb       not null,
  status         text        not null default 'running',
  contacts_seen  bigint      not null default 0,
  enrolled       bigint      not null default 0,
  already_active bigint      not null default 0,
  after_contact  uuid,
  leased_by      text,
  lease_until    timestamptz,
  error          text,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  finished_at    timestamptz
);

create index bulk_enrollment_job_running on bulk_enrollment_job (created_at) where status = 'running';
