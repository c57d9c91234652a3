-- The retention pass deletes a flow's per-hour node counts older than crm.retention.hourly-counts-keep
-- (its per-day and all-time counts stay): this index finds them without reading every count. It
-- holds only the hour rows. Built in the migration's transaction (not CONCURRENTLY, which Flyway
-- runs outside one and which can wait on Flyway's own lock), so recording node counts waits while
-- it builds: seconds for millions of counts.
create index node_count_hours on node_count (since) where span = 'hour';
