-- A flow's goal, stored with each canvas version beside its nodes, edges and settings (a condition
-- on the run's contact, canvas/FlowGoals); null: the version has none.
alter table canvas_version add column goal jsonb;

-- Why a completed run ended before its last node: {"reason": "goal", "at_node": <node id>}; null
-- for every other run.
alter table automation_run add column exit jsonb;

-- the runs of a flow that met its goal, newest first (the run list's exit=goal)
create index automation_run_goal_met on automation_run (tenant_id, sequence_id, created_at desc)
    where exit ->> 'reason' = 'goal';

-- A running run whose canvas version has a goal watches its contact in the record index
-- (recordwatch/RecordWatches, watcher '(goal)'): the router judges the goal on each event about the
-- contact and routes the run one when it holds. The watch follows the run's row, whatever writes it:
-- entered with the run (every path that stores a run, in its transaction, so a restart finds it),
-- entered or taken out when the run is moved to a version with or without a goal, and taken out,
-- with its deliveries, when the run ends.
create function automation_run_goal_watch() returns trigger language plpgsql as $$
declare
    contact text := case
        when jsonb_typeof(new.trigger_payload -> 'contact_id') = 'string'
            then new.trigger_payload ->> 'contact_id'
        when jsonb_typeof(new.trigger_payload -> 'data' -> 'contact_id') = 'string'
            then new.trigger_payload -> 'data' ->> 'contact_id'
        end;
begin
    if new.status = 'running' and not new.test and contact is not null and exists (
            select from canvas_version v
            where v.tenant_id = new.tenant_id and v.sequence_id = new.sequence_id
              and v.version = new.canvas_version and v.goal is not null) then
        insert into record_watch (run_id, watcher, tenant_id, record_type, record_id, workflow_id)
        values (new.id, '(goal)', new.tenant_id, 'contact', contact, new.workflow_id)
        on conflict (run_id, watcher) do nothing;
    elsif tg_op = 'UPDATE' then
        delete from record_watch where run_id = new.id and watcher = '(goal)';
        -- a run that had no goal's watch (most runs) costs no second statement
        if found then
            delete from record_event_delivery where run_id = new.id and watcher = '(goal)';
        end if;
    end if;
    return null;
end
$$;

create trigger automation_run_goal_watch_entered after insert on automation_run
    for each row execute function automation_run_goal_watch();

create trigger automation_run_goal_watch_followed after update of status, canvas_version
    on automation_run
    for each row
    when (old.status is distinct from new.status
          or old.canvas_version is distinct from new.canvas_version)
    execute function automation_run_goal_watch();

-- The node log entry of a run that met its goal (skipped, "goal met") counts as the goal met at its
-- node: kept apart from the other skips under the key 'goal' (nodestats/NodeStatsService).
create or replace function node_count_key(p_node_type text, p_output jsonb, p_status text,
                                          p_started text, p_completed text,
                                          out branch text, out ended timestamptz)
    language sql stable as $$
    select case when p_status = 'skipped' and p_output ->> 'skipped' = 'goal met' then 'goal'
                when p_node_type = 'split' then coalesce(p_output ->> 'branch', '')
                else '' end,
           case when p_status = 'running' then null
                else coalesce(p_completed, p_started)::timestamptz end
$$;
