-- The audit row of a change is written in the change's own transaction, before the call's final
-- status is known; the status is filled in once the answer is sent.
alter table audit_log alter column status drop not null;

-- Refused attempts (401, 403): who tried what, and why it was refused. The tenant and key are
-- known only when the key was (a 403, a revoked key); an unknown key has neither.
create table security_event (
    id             bigint generated always as identity primary key,
    tenant_id      uuid references tenant (id),
    api_key_id     uuid references api_key (id),
    actor          text        not null,
    method         text        not null,
    path           text        not null,
    status         integer     not null,
    reason         text        not null,
    remote_address text,
    created_at     timestamptz not null default now()
);
create index security_event_by_tenant on security_event (tenant_id, id desc);
