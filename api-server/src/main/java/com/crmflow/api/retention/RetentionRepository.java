package com.crmflow.api.retention;

import java.time.OffsetDateTime;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Deletes, a batch at a time, rows whose job is done and that are older than a cut-off. */
@Repository
class RetentionRepository {

  private final JdbcClient jdbc;

  RetentionRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** Deliveries delivered, failed or stopped before the cut-off (their attempts go with them). */
  int deleteFinishedDeliveries(OffsetDateTime finishedBefore, int batch) {
    return jdbc.sql(
            """
            delete from webhook_delivery where id in (
                select id from webhook_delivery
                where status <> 'pending' and completed_at < :before
                limit :batch)
            """)
        .param("before", finishedBefore)
        .param("batch", batch)
        .update();
  }

  /**
   * Hand-over marks last changed before the cut-off: a node's run writes its log entry before the
   * run next waits, so no resumed run looks for a mark that old.
   */
  int deleteHandOvers(OffsetDateTime changedBefore, int batch) {
    return jdbc.sql(
            """
            delete from hand_over where effect_key in (
                select effect_key from hand_over where updated_at < :before limit :batch)
            """)
        .param("before", changedBefore)
        .param("batch", batch)
        .update();
  }

  /**
   * What create_record and chat_message nodes did, recorded before the cut-off, in runs that have
   * ended: only a run still going can run such a node again and need the row (retrying a run starts
   * a new one).
   */
  int deleteNodeEffects(OffsetDateTime createdBefore, int batch) {
    return jdbc.sql(
            """
            delete from node_effect where (run_id, node_id) in (
                select e.run_id, e.node_id from node_effect e
                join automation_run r on r.id = e.run_id
                where e.created_at < :before and r.status <> 'running'
                limit :batch)
            """)
        .param("before", createdBefore)
        .param("batch", batch)
        .update();
  }

  /**
   * Events routed to waiting runs (wait_until) before the cut-off, in runs that have ended: only a
   * run still going can enter its watch again and be answered with them.
   */
  int deleteRecordEventDeliveries(OffsetDateTime createdBefore, int batch) {
    return jdbc.sql(
            """
            delete from record_event_delivery where (run_id, watcher, event_id) in (
                select d.run_id, d.watcher, d.event_id from record_event_delivery d
                join automation_run r on r.id = d.run_id
                where d.created_at < :before and r.status <> 'running'
                limit :batch)
            """)
        .param("before", createdBefore)
        .param("batch", batch)
        .update();
  }

  /** Idempotency-Keys first used before the cut-off, with the answers kept for their repeats. */
  int deleteIdempotentRequests(OffsetDateTime firstUsedBefore, int batch) {
    return jdbc.sql(
            """
            delete from idempotent_request where (tenant_id, idempotency_key) in (
                select tenant_id, idempotency_key from idempotent_request
                where created_at < :before limit :batch)
            """)
        .param("before", firstUsedBefore)
        .param("batch", batch)
        .update();
  }

  /** Security events (refused calls) recorded before the cut-off, oldest first. */
  int deleteSecurityEvents(OffsetDateTime recordedBefore, int batch) {
    return jdbc.sql(
            """
            delete from security_event where id in (
                select id from security_event
                where created_at < :before
                order by created_at limit :batch)
            """)
        .param("before", recordedBefore)
        .param("batch", batch)
        .update();
  }

  /** The counts of automation starts per record of minutes that began before the cut-off. */
  int deleteStartWindows(OffsetDateTime startedBefore, int batch) {
    return jdbc.sql(
            """
            delete from automation_start_window where ctid in (
                select ctid from automation_start_window
                where window_start < :before limit :batch)
            """)
        .param("before", startedBefore)
        .param("batch", batch)
        .update();
  }

  /** The per-hour counts of flows' node log entries of hours that began before the cut-off. */
  int deleteHourlyNodeCounts(OffsetDateTime hoursBefore, int batch) {
    return jdbc.sql(
            """
            delete from node_count where ctid in (
                select ctid from node_count
                where span = 'hour' and since < :before limit :batch)
            """)
        .param("before", hoursBefore)
        .param("batch", batch)
        .update();
  }

  /** CRM events handed to their webhooks and triggers before the cut-off. */
  int deleteDispatchedEvents(OffsetDateTime dispatchedBefore, int batch) {
    return jdbc.sql(
            """
            delete from event_outbox where id in (
                select id from event_outbox
                where dispatched_at < :before
                order by id limit :batch)
            """)
        .param("before", dispatchedBefore)
        .param("batch", batch)
        .update();
  }
}
