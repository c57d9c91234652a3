-- The same request while its move is under way answers with that move: unique on the request's
-- md5 rather than its text, since a btree entry holds at most about 2.7 kB and a request names
-- its mapping and its source versions, which a client may make longer than that. The md5 only
-- keys the index: a move is found by its request's whole text.
drop index run_move_job_same_request;
create unique index run_move_job_same_request on run_move_job (tenant_id, sequence_id, md5(request))
    where status = 'running';
