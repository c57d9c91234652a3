package com.crmflow.api.event;

import com.crmflow.api.json.JsonColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Drains {@code event_outbox}: in id order (so in order per tenant), in batches, each batch in one
 * transaction that stores the work of every handler and marks the events dispatched. An advisory
 * lock keeps one dispatcher at a time across api-server instances, which keeps the order. A batch
 * that fails rolls back whole and is dispatched again on the next round: at least once, and the
 * handlers' work is keyed by event id, so a repeat stores nothing twice.
 */
@Component
class EventDispatcher {

  private static final Logger log = LoggerFactory.getLogger(EventDispatcher.class);
  private static final long DISPATCH_LOCK = 0x0c7a_0e7e_0001L;
  private static final int BATCH = 200;

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final TransactionTemplate transaction;
  private final List<OutboxEventHandler> handlers;

  EventDispatcher(
      JdbcClient jdbc,
      JsonColumns json,
      TransactionTemplate transaction,
      List<OutboxEventHandler> handlers) {
    this.jdbc = jdbc;
    this.json = json;
    this.transaction = transaction;
    this.handlers = handlers;
  }

  @Scheduled(fixedDelayString = "${crm.events.dispatch-interval:250ms}")
  void dispatchPending() {
    try {
      int dispatched;
      do {
        dispatched = dispatchBatch();
      } while (dispatched == BATCH);
    } catch (RuntimeException e) {
      log.warn("Event dispatch failed; the events stay pending for the next round", e);
    }
  }

  /** One batch; returns how many events it dispatched. */
  int dispatchBatch() {
    List<Runnable> afterCommit = new ArrayList<>();
    Integer count =
        transaction.execute(
            tx -> {
              boolean mine =
                  jdbc.sql("select pg_try_advisory_xact_lock(:key)")
                      .param("key", DISPATCH_LOCK)
                      .query(Boolean.class)
                      .single();
              if (!mine) {
                return 0;
              }
              List<DispatchedEvent> events = pending();
              for (DispatchedEvent event : events) {
                for (OutboxEventHandler handler : handlers) {
                  afterCommit.addAll(handler.dispatch(event));
                }
              }
              if (!events.isEmpty()) {
                jdbc.sql("update event_outbox set dispatched_at = now() where id = any(:ids)")
                    .param("ids", events.stream().map(DispatchedEvent::id).toArray(Long[]::new))
                    .update();
              }
              return events.size();
            });
    afterCommit.forEach(Runnable::run);
    return count == null ? 0 : count;
  }

  private List<DispatchedEvent> pending() {
    return jdbc.sql(
            """
            select id, tenant_id, event_id, event, envelope::text as envelope from event_outbox
            where dispatched_at is null order by id limit :limit
            """)
        .param("limit", BATCH)
        .query(
            (rs, row) ->
                new DispatchedEvent(
                    rs.getLong("id"),
                    rs.getObject("tenant_id", UUID.class),
                    rs.getObject("event_id", UUID.class),
                    rs.getString("event"),
                    json.readMap(rs.getString("envelope"))))
        .list();
  }
}
