-- A failed run is retried once (POST /automation-runs/:id/retry looks for an earlier retry), and
-- a retry of a retry reads the outputs of the whole chain of runs before it.
create index automation_run_retries on automation_run (retry_of) where retry_of is not null;
