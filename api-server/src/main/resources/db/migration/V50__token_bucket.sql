-- The token buckets of the per-key rate limit and the tenants' trigger quotas when every
-- api-server shares them (crm.buckets.shared): Bucket4j's PostgreSQL integration keeps each
-- bucket's state here, one row per policy, key and budget, locked (select ... for update) for the
-- moment a call takes its token. expires_at (epoch milliseconds) is when the bucket is full again
-- plus crm.buckets.keep-idle: rows past it are deleted in batches.
create table token_bucket (
  id         text primary key,
  state      bytea,
  expires_at bigint
);

create index token_bucket_expires_at on token_bucket (expires_at);
