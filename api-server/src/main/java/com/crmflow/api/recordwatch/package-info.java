/**
 * The index from a record to the runs waiting for its events, and the routing of each CRM event to
 * them: a run's node watches a record (wait_until), the outbox's dispatcher routes each event to
 * the watching runs in its own transaction, and the deliveries signal the runs' workflows, in
 * order, each event once.
 */
package com.crmflow.api.recordwatch;
