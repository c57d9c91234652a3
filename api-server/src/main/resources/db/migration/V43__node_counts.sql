-- Counts of node log entries per flow, version, node, status (running: waiting there now; completed,
-- failed, skipped) and split branch, kept by a trigger on run_node_log as entries are written, so
-- GET /api/sequences/:id/stats reads a few hundred rows however many runs the flow had
-- (nodestats/NodeStatsService). Each count is kept in three spans: 'total' (all time; the only span of
-- running), 'day' and 'hour' (by the UTC day or hour the entry ended in), and in 4 shards by run,
-- so that runs ending at once seldom wait on one row.
create table node_count (
    sequence_id    uuid        not null,
    span           text        not null check (span in ('total', 'day', 'hour')),
    since          timestamptz not null,
    canvas_version integer     not null,
    node_id        text        not null,
    status         text        not null,
    branch         text        not null,
    shard          smallint    not null,
    n              bigint      not null,
    primary key (sequence_id, span, since, canvas_version, node_id, status, branch, shard)
);

-- Adds delta to the counts of one entry state in every span (running: total only).
create function node_count_add(p_sequence uuid, p_version integer, p_node text, p_status text,
                               p_branch text, p_ended timestamptz, p_shard smallint,
                               p_delta integer) returns void language sql as $$
    insert into node_count (sequence_id, span, since, canvas_version, node_id, status, branch,
                            shard, n)
    select p_sequence, s.span, s.since, p_version, p_node, p_status, p_branch, p_shard, p_delta
    from (values ('total', '-infinity'::timestamptz),
                 ('day', date_trunc('day', p_ended, 'UTC')),
                 ('hour', date_trunc('hour', p_ended, 'UTC'))) as s(span, since)
    where s.span = 'total' or p_ended is not null
    on conflict (sequence_id, span, since, canvas_version, node_id, status, branch, shard)
        do update set n = node_count.n + excluded.n
$$;

-- A log entry written or changed: its old state leaves the counts, its new one joins them. A
-- rewrite of the same state (a retried recording) changes nothing.
create function run_node_log_counts() returns trigger language plpgsql as $$
declare
    run record;
    shard smallint := (hashtext(new.run_id::text) & 3)::smallint;
    new_branch text := case when new.node_type = 'split'
                            then coalesce(new.output ->> 'branch', '') else '' end;
    old_branch text;
begin
    if tg_op = 'UPDATE' then
        old_branch := case when old.node_type = 'split'
                           then coalesce(old.output ->> 'branch', '') else '' end;
        if old.status is not distinct from new.status and old_branch = new_branch then
            return null;
        end if;
    end if;
    select sequence_id, canvas_version into run from automation_run where id = new.run_id;
    if tg_op = 'UPDATE' then
        perform node_count_add(run.sequence_id, run.canvas_version, old.node_id, old.status,
                               old_branch,
                               case when old.status = 'running' then null
                                    else coalesce(old.completed_at, old.started_at)::timestamptz
                               end,
                               shard, -1);
    end if;
    perform node_count_add(run.sequence_id, run.canvas_version, new.node_id, new.status,
                           new_branch,
                           case when new.status = 'running' then null
                                else coalesce(new.completed_at, new.started_at)::timestamptz end,
                           shard, 1);
    return null;
end
$$;

create trigger run_node_log_counts after insert or update on run_node_log
    for each row execute function run_node_log_counts();

-- the entries written before the counts
insert into node_count (sequence_id, span, since, canvas_version, node_id, status, branch, shard, n)
select r.sequence_id, s.span, s.since, r.canvas_version, l.node_id, l.status,
       case when l.node_type = 'split' then coalesce(l.output ->> 'branch', '') else '' end,
       (hashtext(l.run_id::text) & 3)::smallint, count(*)
from run_node_log l
join automation_run r on r.id = l.run_id
cross join lateral (
    values ('total', '-infinity'::timestamptz),
           ('day', date_trunc('day', coalesce(l.completed_at, l.started_at)::timestamptz, 'UTC')),
           ('hour', date_trunc('hour', coalesce(l.completed_at, l.started_at)::timestamptz, 'UTC'))
) as s(span, since)
where s.span = 'total' or l.status <> 'running'
group by 1, 2, 3, 4, 5, 6, 7, 8;

-- the versions of a flow with runs in flight, for its counts
create index automation_run_running_versions on automation_run (sequence_id, canvas_version)
    where status = 'running';
