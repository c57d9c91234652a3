-- Counts of node log entries per flow, version, node, status (running: waiting there now; completed,
-- failed, skipped) and split branch, kept by a trigger on run_node_log as entries are written, so
-- GET /api/sequences/:id/stats reads a few hundred rows however many runs the flow had
-- (nodestats/NodeStatsService). Each count is kept in three spans: 'total' (all time; the only
-- span of running), 'day' and 'hour' (by the UTC day or hour the entry ended in), and in 4 shards
-- by run, so that runs ending at once seldom wait on one row.
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

-- The entries' states as counted: a split's branch, and the moment an ended entry is counted at.
create function node_count_key(p_node_type text, p_output jsonb, p_status text,
                               p_started text, p_completed text,
                               out branch text, out ended timestamptz)
    language sql stable as $$
    select case when p_node_type = 'split' then coalesce(p_output ->> 'branch', '') else '' end,
           case when p_status = 'running' then null
                else coalesce(p_completed, p_started)::timestamptz end
$$;

-- Adds the deltas of a statement's entries (run, node, status, branch, ended, delta) to the counts
-- of every span (running: total only), grouped, so that a batch of entries is one upsert. Rows go
-- in key order, so two writers lock the rows they share in the same order.
create function node_count_apply(p_deltas jsonb) returns void language sql as $$
    insert into node_count (sequence_id, span, since, canvas_version, node_id, status, branch,
                            shard, n)
    select r.sequence_id, s.span, s.since, r.canvas_version, d.node_id, d.status, d.branch,
           (hashtext(d.run_id::text) & 3)::smallint, sum(d.delta)
    from jsonb_to_recordset(p_deltas) as d(run_id uuid, node_id text, status text, branch text,
                                           ended timestamptz, delta integer)
    join automation_run r on r.id = d.run_id
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

-- Entries written: each joins the counts of its state. Once per statement (a recorder's batch is
-- one), reading the statement's rows from its transition table.
create function run_node_log_counts_inserted() returns trigger language plpgsql as $$
begin
    perform node_count_apply(coalesce((
        select jsonb_agg(jsonb_build_object(
                   'run_id', l.run_id, 'node_id', l.node_id, 'status', l.status,
                   'branch', k.branch, 'ended', k.ended, 'delta', 1))
        from inserted_entries l
        cross join lateral node_count_key(l.node_type, l.output, l.status, l.started_at,
                                          l.completed_at) k), '[]'::jsonb));
    return null;
end
$$;

-- Entries changed: an entry whose state (status, branch) changed leaves the counts of its old one
-- and joins those of its new one; a rewrite of the same state (a retried recording) changes nothing.
create function run_node_log_counts_updated() returns trigger language plpgsql as $$
begin
    perform node_count_apply(coalesce((
        select jsonb_agg(d)
        from (select jsonb_build_object('run_id', o.run_id, 'node_id', o.node_id,
                                        'status', o.status, 'branch', ko.branch,
                                        'ended', ko.ended, 'delta', -1) as before,
                     jsonb_build_object('run_id', n.run_id, 'node_id', n.node_id,
                                        'status', n.status, 'branch', kn.branch,
                                        'ended', kn.ended, 'delta', 1) as after
              from old_entries o
              join new_entries n on n.run_id = o.run_id and n.seq = o.seq
              cross join lateral node_count_key(o.node_type, o.output, o.status, o.started_at,
                                                o.completed_at) ko
              cross join lateral node_count_key(n.node_type, n.output, n.status, n.started_at,
                                                n.completed_at) kn
              where o.status is distinct from n.status or ko.branch <> kn.branch) changed
        cross join lateral (values (changed.before), (changed.after)) as each(d)), '[]'::jsonb));
    return null;
end
$$;

create trigger run_node_log_counts_inserted after insert on run_node_log
    referencing new table as inserted_entries
    for each statement execute function run_node_log_counts_inserted();

create trigger run_node_log_counts_updated after update on run_node_log
    referencing old table as old_entries new table as new_entries
    for each statement execute function run_node_log_counts_updated();

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
