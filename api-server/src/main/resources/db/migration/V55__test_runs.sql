-- A test run (POST /api/v1/sequences/{id}/test-runs) acts on nothing outside itself: it is kept
-- apart from the runs that did, in the run list, the flows' last run and run counts, and re-enrollment.
alter table automation_run add column test boolean not null default false;
