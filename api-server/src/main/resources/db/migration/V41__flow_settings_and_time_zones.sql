-- A flow's settings, stored with each canvas version beside its nodes and edges (see
-- canvas/FlowSettings): null is every setting at its default.
alter table canvas_version add column settings jsonb;

-- The tenant's time zone, the last of a send window's "contact" zones: the contact's, the flow's,
-- then this.
alter table tenant add column default_timezone text not null default 'UTC';
