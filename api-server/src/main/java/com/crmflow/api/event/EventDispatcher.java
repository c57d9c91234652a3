package com.crmflow.api.event;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.shared.text.NulCharacters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Drains {@code event_outbox}: in id order (so in order per tenant), in batches, each batch in one
 * transaction that stores the work of every handler and marks the events dispatched. An advisory
 * lock keeps one dispatcher at a time across api-server instances, which keeps the order. A batch
 * that fails rolls back whole and is dispatched again on the next round: at least once, and the
 * handlers' work is keyed by event id, so a repeat stores nothing twice.
 *
 * <p>A batch fails whole when one of its events fails, and that event would hold up every event
 * after it, of every tenant, for good if its failure is its own (a handler's bug, a constraint it
 * breaks). So after a failed batch the events go one at a time, each in its own transaction, up to
 * the one that fails: its failures are counted, and at {@link #MAX_ATTEMPTS} it is set aside
 * (dispatched_at set, with last_error; logged, counted in {@code crm.events.set.aside}). Events
 * after it wait for it meanwhile, which keeps the order; a database that is down fails the counting
 * too, so an outage sets nothing aside.
 */
@Component
class EventDispatcher implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(EventDispatcher.class);
  private static final long DISPATCH_LOCK = 0x0c7a_0e7e_0001L;
  private static final int BATCH = 200;
  static final int MAX_ATTEMPTS = 5;

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final TransactionTemplate transaction;
  private final List<OutboxEventHandler> handlers;
  private final Counter setAsideEvents;
  private final Duration setAsideAfter;
  private final CrmProperties.Events settings;

  EventDispatcher(
      JdbcClient jdbc,
      JsonColumns json,
      TransactionTemplate transaction,
      List<OutboxEventHandler> handlers,
      CrmProperties properties,
      MeterRegistry meters) {
    this.settings = properties.events();
    this.setAsideAfter = settings.setAsideAfter();
    this.jdbc = jdbc;
    this.json = json;
    this.transaction = transaction;
    this.handlers = handlers;
    this.setAsideEvents =
        Counter.builder("crm.events.set.aside")
            .description(
                "Outbox events set aside after failing to dispatch for a while (their error is"
                    + " in event_outbox.last_error)")
            .register(meters);
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(this::dispatchPending, settings.dispatchInterval());
  }

  void dispatchPending() {
    try {
      int dispatched;
      do {
        dispatched = dispatch(BATCH, new AtomicLong());
      } while (dispatched == BATCH);
    } catch (RuntimeException e) {
      log.warn("Event dispatch failed; dispatching one event at a time to find which", e);
      dispatchOneAtATime();
    }
  }

  /**
   * Up to a batch of events, each in its own transaction, up to the first that fails, whose failure
   * is counted (and which is set aside at the last attempt).
   */
  void dispatchOneAtATime() {
    AtomicLong current = new AtomicLong(-1);
    try {
      for (int i = 0; i < BATCH && dispatch(1, current) == 1; i++) {
        current.set(-1);
      }
    } catch (RuntimeException failed) {
      if (current.get() >= 0) {
        countFailure(current.get(), failed);
      } else {
        log.warn("Event dispatch failed; the events stay pending for the next round", failed);
      }
    }
  }

  private void countFailure(long eventId, RuntimeException failed) {
    try {
      Boolean setAside =
          jdbc.sql(
                  """
                  update event_outbox
                  set failed_attempts = failed_attempts + 1, last_error = :error,
                      first_failed_at = coalesce(first_failed_at, now()),
                      dispatched_at =
                          case when failed_attempts + 1 >= :max
                                    and first_failed_at <= now() - make_interval(secs => :after)
                               then now() end
                  where id = :id and dispatched_at is null
                  returning dispatched_at is not null
                  """)
              .param("id", eventId)
              .param("error", NulCharacters.replaced(String.valueOf(failed)))
              .param("max", MAX_ATTEMPTS)
              .param("after", setAsideAfter.toMillis() / 1000.0)
              .query(Boolean.class)
              .optional()
              .orElse(false);
      if (setAside) {
        setAsideEvents.increment();
        log.error(
            "Event {} kept failing to dispatch for {} and is set aside; the events after it go on",
            eventId,
            setAsideAfter,
            failed);
      } else {
        log.warn("Event {} failed to dispatch; it is tried again next round", eventId, failed);
      }
    } catch (RuntimeException notCounted) {
      log.warn("Event dispatch failed; the events stay pending for the next round", failed);
    }
  }

  /**
   * Dispatches up to {@code limit} pending events in one transaction; {@code current} holds the id
   * of the event being handled when there is one (a failure is then that event's).
   *
   * @return how many it dispatched
   */
  private int dispatch(int limit, AtomicLong current) {
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
              List<DispatchedEvent> events = pending(limit);
              if (events.size() == 1) {
                current.set(events.get(0).id());
              }
              for (OutboxEventHandler handler : handlers) {
                afterCommit.addAll(handler.dispatch(events));
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

  private List<DispatchedEvent> pending(int limit) {
    return jdbc.sql(
            """
            select id, tenant_id, event_id, event, envelope::text as envelope,
                   cause::text as cause, granted::text as granted, traceparent
            from event_outbox
            where dispatched_at is null order by id limit :limit
            """)
        .param("limit", limit)
        .query(
            (rs, row) ->
                new DispatchedEvent(
                    rs.getLong("id"),
                    rs.getObject("tenant_id", UUID.class),
                    rs.getObject("event_id", UUID.class),
                    rs.getString("event"),
                    json.readMap(rs.getString("envelope")),
                    rs.getString("cause") == null
                        ? null
                        : EventCause.from(json.readMap(rs.getString("cause"))),
                    rs.getString("granted") == null
                        ? null
                        : json.readList(rs.getString("granted")).stream()
                            .map(id -> UUID.fromString(String.valueOf(id)))
                            .toList(),
                    rs.getString("traceparent")))
        .list();
  }
}
