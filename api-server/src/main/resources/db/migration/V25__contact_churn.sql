-- Contacts change all day; these keep search and the lists as fast between two vacuums as right
-- after one (docs/benchmarks.md, "after the upserts").
--
-- Room on each page for an updated contact's new version. An update that leaves the indexed
-- columns as they were (a title, a phone, custom fields) then stays on its page (a HOT update):
-- it writes no entry into the six indexes, and the old version is pruned from the page on a later
-- read, instead of staying behind until a vacuum for every scan to step over. Pages written from
-- now on keep 10% free; full pages gain it when the table is rewritten.
alter table contact set (fillfactor = 90);

-- New trigram entries wait in the index's pending list until it is merged into the index, and
-- every search reads the whole list: 256 kB of it (32 pages) at most, not the 4 MB default.
alter index contact_search set (gin_pending_list_limit = 256);
