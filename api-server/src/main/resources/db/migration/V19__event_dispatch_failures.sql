-- An event whose dispatch fails on its own (a handler's bug, a constraint it breaks) is tried for a
-- while and then set aside, dispatched_at set, with its error, so that it no longer holds up every
-- event after it (see EventDispatcher).
alter table event_outbox add column failed_attempts integer not null default 0;
alter table event_outbox add column last_error text;
alter table event_outbox add column first_failed_at timestamptz;
