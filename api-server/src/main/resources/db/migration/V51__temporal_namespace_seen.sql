-- The id of the Temporal namespace the service's workflows live in, as last seen by the close
-- check. Temporal gives a namespace a new id when it is made again (a database reset or
-- replaced): when the id read differs from this one, the close check looks at every open record's
-- workflow once, to end the records whose workflow the new namespace does not know.
create table temporal_namespace_seen (
  namespace    text        primary key,
  namespace_id text        not null,
  seen_at      timestamptz not null default now()
);
