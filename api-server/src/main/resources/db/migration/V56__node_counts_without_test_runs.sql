-- A test run acts on nothing and counts for nothing: its entries stay out of the counts per node.
create or replace function node_count_apply(p_deltas jsonb) returns void language sql as $$
    insert into node_count (sequence_id, span, since, canvas_version, node_id, status, branch,
                            shard, n)
    select r.sequence_id, s.span, s.since, r.canvas_version, d.node_id, d.status, d.branch,
           (hashtext(d.run_id::text) & 3)::smallint, sum(d.delta)
    from jsonb_to_recordset(p_deltas) as d(run_id uuid, node_id text, status text, branch text,
                                           ended timestamptz, delta integer)
    join automation_run r on r.id = d.run_id and not r.test
    cross join lateral (values ('total', '-infinity'::timestamptz),
                               ('day', date_trunc('day', d.ended, 'UTC')),
                               ('hour', date_trunc('hour', d.ended, 'UTC'))) as s(span, since)
    where s.span = 'total' or d.ended is not null
    group by 1, 2, 3, 4, 5, 6, 7, 8
    having sum(d.delta) <> 0
    order by 1, 2, 3, 4, 5, 6, 7, 8
    on conflict (sequence_id, span, since, canvas_version, node_id, status, branch, shard)
        do update set n = node_count.n + excluded.n
$$;

-- the test runs' entries counted before
with counted as (
    select r.sequence_id, s.span, s.since, r.canvas_version, l.node_id, l.status,
           case when l.node_type = 'split' then coalesce(l.output ->> 'branch', '') else '' end
               as branch,
           (hashtext(l.run_id::text) & 3)::smallint as shard, count(*) as n
    from run_node_log l
    join automation_run r on r.id = l.run_id and r.test
    cross join lateral (
        values ('total', '-infinity'::timestamptz),
               ('day', date_trunc('day', coalesce(l.completed_at, l.started_at)::timestamptz, 'UTC')),
               ('hour', date_trunc('hour', coalesce(l.completed_at, l.started_at)::timestamptz, 'UTC'))
    ) as s(span, since)
    where s.span = 'total' or l.status <> 'running'
    group by 1, 2, 3, 4, 5, 6, 7, 8)
update node_count c set n = c.n - counted.n
from counted
where c.sequence_id = counted.sequence_id and c.span = counted.span and c.since = counted.since
  and c.canvas_version = counted.canvas_version and c.node_id = counted.node_id
  and c.status = counted.status and c.branch = counted.branch and c.shard = counted.shard;
