-- What a flow's pause, archive or resume asks of its runs in progress (hold, release, end), handed
-- to each run by a job that any api-server takes by lease and goes through a page of runs at a
-- time, in run id order; its cursor commits with each page, so a job whose api-server died is
-- taken on from where it was. generation orders the asks of all flows: a run takes an ask only
-- when it is newer than the last it took, so a late hold never undoes the release after it.
create sequence run_control_generation;

create table run_control_job (
  id          uuid        primary key,
  tenant_id   uuid        not null references tenant (id),
  sequence_id uuid        not null references sequence (id),
  action      text        not null check (action in ('hold', 'release', 'end')),
  reason      text,
  generation  bigint      not null default nextval('run_control_generation'),
  -- running; completed once every run was asked; superseded by a newer ask of the same flow
  status      text        not null default 'running'
      check (status in ('running', 'completed', 'superseded')),
  runs        bigint      not null,
  runs_asked  bigint      not null default 0,
  after_run   uuid,
  leased_by   text,
  lease_until timestamptz,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now(),
  finished_at timestamptz
);

create index run_control_job_running on run_control_job (created_at) where status = 'running';
create index run_control_job_by_sequence on run_control_job (sequence_id, generation desc);

-- the runs in progress of a flow, in id order: what a job pages through and counts
create index automation_run_running_by_sequence on automation_run (tenant_id, sequence_id, id)
    where status = 'running';
