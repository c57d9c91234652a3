package com.crmflow.api.idempotency;

/** The answer given to the first request with an Idempotency-Key, replayed to its repeats. */
record StoredAnswer(int status, String contentType, byte[] body) {}
