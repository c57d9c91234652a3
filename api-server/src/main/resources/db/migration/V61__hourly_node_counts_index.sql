-- The retention pass deletes a flow's per-hour node counts older than crm.retention.hourly-counts-keep
-- (its per-day and all-time counts stay): this index finds them without reading every count. A
-- count's update changes only n, so the index costs an entry per new hour row, not per update.
create index node_count_hours on node_count (since) where span = 'hour';
