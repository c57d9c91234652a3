-- The cause of a run ({run_id, sequence_id, node_id, chain, depth, root}: the run whose write or
-- call started it, and the chain before), set by the service alone: by the dispatcher for a run an
-- event of a run's write started, by the public trigger for a call that carries a CRM-Cause token
-- of one of the tenant's runs. Null for any other run. A trigger payload is the caller's data only:
-- a "cause" in it is never read as one.
alter table automation_run add column cause jsonb;

-- The cause of a run a CRM event started is the one the dispatcher put into its payload: it moves
-- here. A webhook run's payload "cause" may be the caller's own: it is not taken, so such a run's
-- writes start chains of their own.
update automation_run set cause = trigger_payload -> 'cause'
where idempotency_key like 'event:%' and jsonb_typeof(trigger_payload -> 'cause') = 'object';

-- crm.events.max-runs-per-cause counts the runs started per root from the stored cause
drop index automation_run_cause_root;
create index automation_run_cause_root on automation_run (tenant_id, (cause ->> 'root'))
    where cause is not null;

-- crm.events.max-runs-per-record-per-minute: the runs an automation's crm_event_trigger started
-- for one record in one minute. A start past the limit is refused and counted in refused.
create table automation_start_window (
    tenant_id uuid not null,
    sequence_id uuid not null,
    record_key text not null,
    window_start timestamptz not null,
    runs integer not null,
    refused integer not null default 0,
    primary key (tenant_id, sequence_id, record_key, window_start)
);
create index automation_start_window_age on automation_start_window (window_start);
