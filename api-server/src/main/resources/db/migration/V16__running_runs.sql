-- The running runs whose workflow Temporal has, for the sweep that ends those whose workflow was
-- closed without the run's recording (terminated in the Temporal UI, say; see ClosedWorkflowSweep).
create index automation_run_running on automation_run (id) where status = 'running' and workflow_started;
