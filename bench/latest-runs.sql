-- The flow's last n runs by the harness's send time (t0, epoch ms, in each trigger payload), as
-- the temporary view latest_runs, for run-phases.sql and run-timeline.sql (\ir this file first):
-- the measured triggers are sent after the warm-up's. accepted is the run row's insert (after the
-- admission), ended its completed_at; all in epoch ms of this machine's clock.
create temporary view latest_runs as
  select r.id, r.status,
         (r.trigger_payload ->> 't0')::numeric as t0,
         extract(epoch from r.created_at) * 1000 as accepted,
         extract(epoch from r.completed_at) * 1000 as ended
  from automation_run r
  join sequence s on s.id = r.sequence_id
  where s.name = :'flow'
  order by (r.trigger_payload ->> 't0')::numeric desc
  limit :n;
