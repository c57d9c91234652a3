-- Refusals beyond the cap of their window are not rows of their own: they add to the count of the
-- last row kept for their source in that window (1: the row stands for itself alone).
alter table security_event add column repeats integer not null default 1;

-- retention deletes the oldest rows first
create index security_event_by_time on security_event (created_at);
