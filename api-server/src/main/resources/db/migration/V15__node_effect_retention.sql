-- The retention pass deletes what create_record and chat_message nodes did once their run has
-- ended and the row is older than crm.retention.keep (see Retention).
create index node_effect_created_at on node_effect (created_at);
