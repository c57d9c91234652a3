-- The dispatcher reads pending events across tenants in id order.
create index event_outbox_pending_in_order on event_outbox (id) where dispatched_at is null;
