-- crm.events.max-runs-per-cause counts the runs started per root of a chain of caused runs
create index automation_run_cause_root
    on automation_run (tenant_id, ((trigger_payload -> 'cause') ->> 'root'));

-- the run whose write produced a delivery's event ("<run id>:<node id>"): its deliveries send it
-- as CRM-Cause, so a delivery to the service's own public trigger carries the chain on
alter table webhook_delivery add column cause text;

-- for an event a run's write produced, the automations it starts (a JSON array of their ids),
-- decided in the write's transaction so that the writing node's log says which it does not
alter table event_outbox add column granted jsonb;
