-- A tenant's own quota of public trigger calls (admin API); both null: the configured default
-- (crm.trigger.quota). RateLimit-Policy states it as q = requests, w = window_seconds.
alter table tenant
    add column trigger_quota_requests       integer check (trigger_quota_requests between 1 and 1000000),
    add column trigger_quota_window_seconds integer check (trigger_quota_window_seconds between 1 and 3600),
    add constraint tenant_trigger_quota_whole
        check ((trigger_quota_requests is null) = (trigger_quota_window_seconds is null));
