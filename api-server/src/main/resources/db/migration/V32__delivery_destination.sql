-- A delivery goes only where, and signed as, its subscription was when the event was recorded: a
-- change of url or secret counts up destination_version and ends the pending deliveries made under
-- the previous one (stopped, saying why); an attempt sends only while the versions match.
alter table webhook_subscription add column destination_version integer not null default 1;
alter table webhook_subscription add column destination_changed_at timestamptz;
alter table webhook_delivery add column destination_version integer not null default 1;
