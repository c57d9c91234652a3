-- the W3C trace id (32 lowercase hex digits) of the trace a run was accepted and started in
alter table automation_run add column trace_id text;

-- the traceparent of the request or activity whose write produced an event: the trace of the runs
-- the event starts is linked to it
alter table event_outbox add column traceparent text;

-- the W3C span id of the span each node ran in (the run's workflow task, or the trigger's request)
alter table run_node_log add column span_id text;
