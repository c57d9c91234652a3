-- When the measured runs of one bench flow were slow, 2 s at a time, from the run records.
--   psql -v flow='bench B' -v n=<measured triggers> -v target=<end-to-end target, ms> -f bench/run-timeline.sql
-- The measured runs are latest_runs (bench/latest-runs.sql), as in run-phases.sql. Each row is a 2 s window of the harness's
-- send times (t0, from the first measured trigger; "at" is its wall-clock start, to line up with a
-- GC log): how many triggers were sent in it, their admission-and-insert time (t0 → run row, p50,
-- p99, max), their t0 → end of the http_request p99, and how many of them took longer than the
-- target. A tail spread over every window is a steady cost; one held by a few windows is a
-- passing stall (a GC pause, a timer burst, a periodic job), to be looked for at those times.
\pset footer off
\ir latest-runs.sql
with calls as (
  select l.run_id, extract(epoch from l.completed_at::timestamptz) * 1000 as call_end
  from run_node_log l
  where l.run_id in (select id from latest_runs) and l.node_type = 'http_request'
),
timed as (
  select floor((t0 - min(t0) over ()) / 2000) * 2 as s,
         t0,
         accepted - t0 as accepted,
         c.call_end - t0 as t0_to_call_end
  from latest_runs
  join calls c on c.run_id = latest_runs.id
)
select s,
       to_char(to_timestamp(min(t0) / 1000) at time zone 'UTC', 'HH24:MI:SS') as "at",
       count(*) as runs,
       round(percentile_cont(0.5) within group (order by accepted)) as accepted_p50,
       round(percentile_cont(0.99) within group (order by accepted)) as accepted_p99,
       round(max(accepted)) as accepted_max,
       round(percentile_cont(0.99) within group (order by t0_to_call_end)) as t0_to_call_end_p99,
       count(*) filter (where t0_to_call_end > :target) as over_target
from timed
group by s
order by s;
