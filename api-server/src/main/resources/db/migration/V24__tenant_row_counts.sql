-- How many contacts, opportunities and conversations each tenant has, so that a list's total is
-- exact without counting a million rows on every page. Triggers keep it in the same transaction as
-- the rows: a statement adds one delta per tenant, into one of 16 shard rows picked at random, so
-- that concurrent inserts in one tenant seldom wait on the same row. The total is their sum.
create table tenant_row_count (
  tenant_id  uuid     not null,
  table_name text     not null,
  shard      smallint not null,
  row_count  bigint   not null,
  primary key (tenant_id, table_name, shard)
);

create function count_inserted_rows() returns trigger language plpgsql as $$
begin
  insert into tenant_row_count (tenant_id, table_name, shard, row_count)
  select tenant_id, TG_TABLE_NAME, floor(random() * 16)::smallint, count(*)
  from inserted group by tenant_id order by tenant_id
  on conflict (tenant_id, table_name, shard)
    do update set row_count = tenant_row_count.row_count + excluded.row_count;
  return null;
end
$$;

create function count_deleted_rows() returns trigger language plpgsql as $$
begin
  insert into tenant_row_count (tenant_id, table_name, shard, row_count)
  select tenant_id, TG_TABLE_NAME, floor(random() * 16)::smallint, -count(*)
  from deleted group by tenant_id order by tenant_id
  on conflict (tenant_id, table_name, shard)
    do update set row_count = tenant_row_count.row_count + excluded.row_count;
  return null;
end
$$;

-- no row is added or removed while the counts start
lock table contact, opportunity, conversation in share row exclusive mode;

insert into tenant_row_count (tenant_id, table_name, shard, row_count)
select tenant_id, 'contact', 0, count(*) from contact group by tenant_id
union all
select tenant_id, 'opportunity', 0, count(*) from opportunity group by tenant_id
union all
select tenant_id, 'conversation', 0, count(*) from conversation group by tenant_id;

create trigger contact_rows_inserted after insert on contact
  referencing new table as inserted for each statement execute function count_inserted_rows();
create trigger contact_rows_deleted after delete on contact
  referencing old table as deleted for each statement execute function count_deleted_rows();
create trigger opportunity_rows_inserted after insert on opportunity
  referencing new table as inserted for each statement execute function count_inserted_rows();
create trigger opportunity_rows_deleted after delete on opportunity
  referencing old table as deleted for each statement execute function count_deleted_rows();
create trigger conversation_rows_inserted after insert on conversation
  referencing new table as inserted for each statement execute function count_inserted_rows();
create trigger conversation_rows_deleted after delete on conversation
  referencing old table as deleted for each statement execute function count_deleted_rows();
