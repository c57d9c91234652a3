-- The retention job finds finished deliveries by when they finished (see retention/Retention).
create index webhook_delivery_finished on webhook_delivery (completed_at) where status <> 'pending';
