-- A run that ends deletes its goal's deliveries (V57). The deliverer (RecordEventDeliveries) marks
-- a run's deliveries one by one in the outbox's order, in one transaction, while the run may end
-- because of the first one it signalled. Deleting them in another order deadlocked the two, and
-- PostgreSQL then aborted the run's end. Both now take the rows in the outbox's order, so a run
-- ending while its events are delivered waits for the deliverer.
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
            delete from record_event_delivery d
            using (select event_id from record_event_delivery
                   where run_id = new.id and watcher = '(goal)'
                   order by outbox_id, event_id
                   for update) in_order
            where d.run_id = new.id and d.watcher = '(goal)' and d.event_id = in_order.event_id;
        end if;
    end if;
    return null;
end
$$;
