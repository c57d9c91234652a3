-- Counts per node (V43) change once per transaction, at its commit, in one statement that takes
-- their rows in key order. Changed per statement instead, a transaction that changed them twice
-- took rows in two runs of key order: an upsert of log entries fires its update trigger (entries
-- that finished) and then its insert trigger (new ones), a run's end then skips the entries still
-- running, a move counts a run off one version and onto another. Another transaction taking the
-- same rows in one sorted run could then deadlock with it, e.g. one run's batch [delay completed,
-- condition completed] inserted at once beside another run's same batch written as an update of
-- its running delay and an insert of the condition (a send window open at once flushes twice).
--
-- node_count_apply now adds the deltas to the transaction's setting crm.node_count_deltas, with
-- the flow, version and shard they count under at that moment (a move changes the version within
-- its transaction), grouped by the hour they ended in; the deferred constraint trigger below
-- applies them when the transaction commits. Its first firing applies everything and empties the
-- setting; the others find nothing. Every caller writes run_node_log in the same transaction (the
-- triggers by definition; RunMoveRecording writes the entry saying the run moved), so the
-- deferred trigger always fires after the deltas.
create or replace function node_count_apply(p_deltas jsonb) returns void language sql as $$
    select set_config(
        'crm.node_count_deltas',
        (coalesce(nullif(current_setting('crm.node_count_deltas', true), ''), '[]')::jsonb
         || coalesce((
                select jsonb_agg(jsonb_build_object(
                           'sequence_id', g.sequence_id, 'canvas_version', g.canvas_version,
                           'node_id', g.node_id, 'status', g.status, 'branch', g.branch,
                           'shard', g.shard, 'hour', g.hour, 'delta', g.delta))
                from (select r.sequence_id, r.canvas_version, d.node_id, d.status, d.branch,
                             hashtext(d.run_id::text) & 3 as shard,
                             date_trunc('hour', d.ended, 'UTC') as hour, sum(d.delta) as delta
                      from jsonb_to_recordset(p_deltas) as d(run_id uuid, node_id text,
                                                             status text, branch text,
                                                             ended timestamptz, delta integer)
                      join automation_run r on r.id = d.run_id and not r.test
                      group by 1, 2, 3, 4, 5, 6, 7
                      having sum(d.delta) <> 0) g), '[]'::jsonb))::text,
        true)
$$;

-- Applies the transaction's deltas to every span (running: total only), grouped, in key order.
create function node_count_flush() returns trigger language plpgsql as $$
declare
    pending text := nullif(current_setting('crm.node_count_deltas', true), '');
begin
    if pending is null or pending = '[]' then
        return null;
    end if;
    perform set_config('crm.node_count_deltas', '', true);
    insert into node_count (sequence_id, span, since, canvas_version, node_id, status, branch,
                            shard, n)
    select d.sequence_id, s.span, s.since, d.canvas_version, d.node_id, d.status, d.branch,
           d.shard, sum(d.delta)
    from jsonb_to_recordset(pending::jsonb) as d(sequence_id uuid, canvas_version integer,
                                                 node_id text, status text, branch text,
                                                 shard smallint, hour timestamptz,
                                                 delta integer)
    cross join lateral (values ('total', '-infinity'::timestamptz),
                               ('day', date_trunc('day', d.hour, 'UTC')),
                               ('hour', d.hour)) as s(span, since)
    where s.span = 'total' or d.hour is not null
    group by 1, 2, 3, 4, 5, 6, 7, 8
    having sum(d.delta) <> 0
    order by 1, 2, 3, 4, 5, 6, 7, 8
    on conflict (sequence_id, span, since, canvas_version, node_id, status, branch, shard)
        do update set n = node_count.n + excluded.n;
    return null;
end
$$;

create constraint trigger run_node_log_counts_at_commit
    after insert or update on run_node_log
    deferrable initially deferred
    for each row execute function node_count_flush();
