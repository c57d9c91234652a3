-- The hand-over mark of effects whose receiver cannot tell a repeat (an email over SMTP, a chat
-- post), kept here too when the activity runs in api-server (embedded defaults): the embedded
-- Temporal server loses activity heartbeats with the process, this table does not (see HandOver).
create table hand_over (
    effect_key text        primary key,
    state      text        not null,
    updated_at timestamptz not null default now()
);

create index hand_over_updated_at on hand_over (updated_at);
