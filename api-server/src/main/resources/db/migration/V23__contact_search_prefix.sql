-- ?search= ranks the contacts whose search text (first name first) starts with the term before the
-- others: a range scan of this index, in byte order, finds them without reading the other matches.
create index contact_search_prefix on contact (tenant_id, (search_text collate "C"), id);
