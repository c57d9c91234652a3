-- what each node ran with: its config with the template variables filled in (secrets masked) and
-- the variables it read; null for triggers, nodes that never started and entries logged before it
alter table run_node_log add column input jsonb;
