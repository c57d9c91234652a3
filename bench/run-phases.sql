-- Where the measured runs of one bench flow spent their time, from the run records.
--   psql -v flow='bench B' -v n=<measured triggers> -f bench/run-phases.sql
-- The measured runs are the flow's last n by the harness's send time (latest-runs.sql): the
-- measured triggers are sent after the warm-up's, and every one is accepted in a sound run (0 lost).
-- The harness puts its send time (t0, epoch ms) in each trigger payload; the run row's created_at
-- is the insert's time (after the admission); a node log entry's times are workflow time (when
-- the worker took the workflow task that ran the node); completed_at is the end's statement. All
-- are one machine's clock. Phases, in a run's order:
--   accepted     t0 → the run row: the admission's wait, the request, the insert
--   first task   the run row → the first node after the trigger starts: starting the workflow and
--                its first workflow task
--   delay        (flow B) the delay entry's start → its end, less the configured 1 s: the timer's
--                lateness and the wait for the workflow task it wakes
--   to call      the delay's end (flow A: the first node's start) → the http_request's start
--   call         the http_request's entry (the sink is reached inside it)
--   end          the http_request's end → the run row's completed_at: the end's recording
-- "slowest 1%" is the mean of each phase over the 1% of runs that took longest from t0 to the
-- end of their http_request, so the tail's make-up is read off one line.
\pset footer off
\ir latest-runs.sql
with measured as (
  select * from latest_runs where status = 'completed'
),
entries as (
  select l.run_id, l.node_type,
         extract(epoch from l.started_at::timestamptz) * 1000 as started,
         extract(epoch from l.completed_at::timestamptz) * 1000 as completed
  from run_node_log l
  where l.run_id in (select id from measured) and l.node_type <> 'webhook_trigger'
),
phases as (
  select m.id,
         m.accepted - m.t0 as accepted,
         first_node.started - m.accepted as first_task,
         d.completed - d.started - 1000 as delay,
         h.started - coalesce(d.completed, first_node.started) as to_call,
         h.completed - h.started as call,
         m.ended - h.completed as "end",
         h.completed - m.t0 as t0_to_call_end
  from measured m
  join entries h on h.run_id = m.id and h.node_type = 'http_request'
  left join entries d on d.run_id = m.id and d.node_type = 'delay'
  cross join lateral (
    select min(e.started) as started from entries e where e.run_id = m.id) first_node
),
slowest as (
  select * from phases
  where t0_to_call_end >= (select percentile_cont(0.99) within group (order by t0_to_call_end) from phases)
)
select 'p50' as "ms", count(*) as runs,
       round(percentile_cont(0.5) within group (order by accepted)) as accepted,
       round(percentile_cont(0.5) within group (order by first_task)) as first_task,
       round(percentile_cont(0.5) within group (order by delay)) as delay_late,
       round(percentile_cont(0.5) within group (order by to_call)) as to_call,
       round(percentile_cont(0.5) within group (order by call)) as call,
       round(percentile_cont(0.5) within group (order by "end")) as "end",
       round(percentile_cont(0.5) within group (order by t0_to_call_end)) as t0_to_call_end
from phases
union all
select 'p99', count(*),
       round(percentile_cont(0.99) within group (order by accepted)),
       round(percentile_cont(0.99) within group (order by first_task)),
       round(percentile_cont(0.99) within group (order by delay)),
       round(percentile_cont(0.99) within group (order by to_call)),
       round(percentile_cont(0.99) within group (order by call)),
       round(percentile_cont(0.99) within group (order by "end")),
       round(percentile_cont(0.99) within group (order by t0_to_call_end))
from phases
union all
select 'slowest 1%', count(*), round(avg(accepted)), round(avg(first_task)), round(avg(delay)),
       round(avg(to_call)), round(avg(call)), round(avg("end")), round(avg(t0_to_call_end))
from slowest;
