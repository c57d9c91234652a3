-- The run whose write produced an event, and the chain of automations and sequences that led to it
-- ({run_id, sequence_id, node_id, chain, depth}); null for an event an API client's call produced.
-- The dispatcher refuses to start an automation of the chain again, or past the depth limit.
alter table event_outbox add column cause jsonb;
