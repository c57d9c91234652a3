-- The pending webhook deliveries whose workflow Temporal has, for the sweep that stops those whose
-- workflow was closed from outside (terminated in the Temporal UI, say; see ClosedWorkflowSweep).
create index webhook_delivery_pending on webhook_delivery (id) where status = 'pending' and workflow_started;
