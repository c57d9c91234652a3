-- The versions a run ran before the one it runs now (canvas_version), oldest first, and the move
-- that moved it last: a run moved to another version of its flow keeps its node log, and its
-- record says where it came from.
alter table automation_run add column moved_from_versions integer[] not null default '{}';
alter table automation_run add column moved_by uuid;

-- A move of a flow's waiting runs to another version of it, asked of each run a page at a time by
-- a job that any api-server takes by lease, in run id order; its cursor and the counts of the runs
-- it could not move commit with each page, so a job whose api-server died goes on from its last
-- page. The runs it moved are counted from automation_run.moved_by, which the run's own recording
-- writes in the transaction that moves its record: each is counted once, whatever dies when.
create table run_move_job (
  id               uuid        primary key,
  tenant_id        uuid        not null references tenant (id),
  sequence_id      uuid        not null references sequence (id),
  to_version       integer     not null,
  from_versions    integer[]   not null,
  mapping          jsonb       not null default '{}',
  recompute_delays boolean     not null default false,
  api_key_id       uuid,
  -- the request as asked (to_version, from_versions, mapping, recompute_delays): the same request
  -- while its move is under way answers with that move
  request          text        not null,
  -- running; completed once every run was asked; stopped by DELETE
  status           text        not null default 'running'
      check (status in ('running', 'completed', 'stopped')),
  runs             bigint      not null,
  -- reason -> runs not moved for it
  skipped          jsonb       not null default '{}',
  after_run        uuid,
  leased_by        text,
  lease_until      timestamptz,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  finished_at      timestamptz
);

create index run_move_job_running on run_move_job (updated_at) where status = 'running';
create unique index run_move_job_same_request on run_move_job (tenant_id, sequence_id, request)
    where status = 'running';
create index automation_run_moved_by on automation_run (moved_by) where moved_by is not null;
