-- The API key that last activated a flow: an automation acts with that key's scopes, checked at
-- activation (see docs/automations.md, "Scopes of a flow").
alter table sequence add column activated_by_key_id uuid references api_key (id);
