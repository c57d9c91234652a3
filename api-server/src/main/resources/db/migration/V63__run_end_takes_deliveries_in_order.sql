-- A run that stops running (or moves) deletes its goal's deliveries (V57, V62), and a run that
-- fails or is cancelled then deletes its nodes' deliveries still on their way (RecordWatches
-- .leaveAll), in the same transaction. The deliverer (RecordEventDeliveries) marks a run's
-- deliveries of every watcher one by one in the outbox's order. Taking the goal's rows first and
-- the nodes' after could hold a later row the deliverer wants while waiting for an earlier one it
-- holds: the run's end now takes every delivery it may delete (the goal's, and the others not yet
-- delivered) at once, in the deliverer's order (outbox_id, watcher, event_id), before it deletes
-- any.
create or replace function automation_run_goal_watch() returns trigger language plpgsql as $$
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
            perform from record_event_delivery
            where run_id = new.id and (watcher = '(goal)' or delivered_at is null)
            order by outbox_id, watcher, event_id
            for update;
            delete from record_event_delivery where run_id = new.id and watcher = '(goal)';
        end if;
    end if;
    return null;
end
$$;
