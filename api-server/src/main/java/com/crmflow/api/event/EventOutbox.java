package com.crmflow.api.event;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.tracing.LinkedTraces;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes an event into {@code event_outbox} inside the caller's transaction, so an event exists
 * exactly when the change that caused it was committed. The stored envelope is the one subscribers
 * receive: {@code {event, timestamp, tenant_id, data}}. An event a run's write produced carries its
 * {@link EventCause} beside the envelope (see {@link #causedBy}).
 */
@Component
public class EventOutbox {

  /** The cause of the events emitted on this thread, and the events emitted under it. */
  private static final ThreadLocal<Caused> CAUSED = new ThreadLocal<>();

  /**
   * @param beforeCommit when set, handed the events each transaction emitted under the cause, in
   *     that transaction just before it commits; null when the caller takes {@code emitted}
   */
  private static final class Caused {
    final EventCause cause;
    final List<DispatchedEvent> emitted = new ArrayList<>();
    final Consumer<List<DispatchedEvent>> beforeCommit;

    /** This scope's events of the current transaction are bound to it under this key. */
    final Object transactionKey = new Object();

    Caused(EventCause cause, Consumer<List<DispatchedEvent>> beforeCommit) {
      this.cause = cause;
      this.beforeCommit = beforeCommit;
    }
  }

  /** Ends what {@link #causeOnThisThread} began. */
  public interface CauseScope extends AutoCloseable {
    @Override
    void close();
  }

  /** What a write returned, and the events it emitted. */
  public record CausedWrite<T>(T result, List<DispatchedEvent> emitted) {}

  private final JdbcClient jdbc;
  private final JsonColumns json;

  EventOutbox(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /**
   * Runs {@code write} (on this thread) so that every event it emits carries {@code cause}: the
   * services a run writes through emit the same events as for an API client, and this marks them as
   * the run's without a cause in each of their signatures.
   */
  public <T> CausedWrite<T> causedBy(EventCause cause, Supplier<T> write) {
    Caused caused = new Caused(cause, null);
    try (CauseScope ignored = enter(caused)) {
      return new CausedWrite<>(write.get(), List.copyOf(caused.emitted));
    }
  }

  /**
   * Until the scope is closed, every event this thread emits carries {@code cause}, and each
   * transaction that emits some hands them to {@code beforeCommit} in that transaction, just before
   * it commits: for work whose writes are not one call on this thread (an API request made by one
   * of the tenant's runs, whose services commit as they go).
   */
  public CauseScope causeOnThisThread(
      EventCause cause, Consumer<List<DispatchedEvent>> beforeCommit) {
    return enter(new Caused(cause, beforeCommit));
  }

  private static CauseScope enter(Caused caused) {
    Caused outer = CAUSED.get();
    CAUSED.set(caused);
    return () -> {
      if (outer == null) {
        CAUSED.remove();
      } else {
        CAUSED.set(outer);
      }
    };
  }

  /** Collects the events of the current transaction, handed on before it commits. */
  private static void beforeCommit(Caused caused, DispatchedEvent event) {
    @SuppressWarnings("unchecked")
    List<DispatchedEvent> pending =
        (List<DispatchedEvent>)
            TransactionSynchronizationManager.getResource(caused.transactionKey);
    if (pending == null) {
      List<DispatchedEvent> collected = new ArrayList<>();
      TransactionSynchronizationManager.bindResource(caused.transactionKey, collected);
      TransactionSynchronizationManager.registerSynchronization(
          new TransactionSynchronization() {
            @Override
            public void beforeCommit(boolean readOnly) {
              caused.beforeCommit.accept(List.copyOf(collected));
            }

            @Override
            public void afterCompletion(int status) {
              TransactionSynchronizationManager.unbindResourceIfPossible(caused.transactionKey);
            }
          });
      pending = collected;
    }
    pending.add(event);
  }

  @Transactional(propagation = Propagation.MANDATORY)
  public UUID emit(UUID tenantId, String event, Map<String, Object> data) {
    UUID eventId = UUID.randomUUID();
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("event", event);
    envelope.put("timestamp", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
    envelope.put("tenant_id", tenantId.toString());
    envelope.put("data", data);
    Caused caused = CAUSED.get();
    EventCause cause = caused == null ? null : caused.cause;
    String traceparent = LinkedTraces.currentTraceparent();
    long id =
        jdbc.sql(
                """
                insert into event_outbox (tenant_id, event_id, event, envelope, cause,
                                          traceparent)
                values (:tenantId, :eventId, :event, :envelope::jsonb, :cause::jsonb,
                        :traceparent)
                returning id
                """)
            .param("tenantId", tenantId)
            .param("eventId", eventId)
            .param("event", event)
            .param("envelope", json.write(envelope))
            .param("cause", cause == null ? null : json.write(cause.asMap()))
            .param("traceparent", traceparent)
            .query(Long.class)
            .single();
    if (caused != null) {
      DispatchedEvent emitted =
          new DispatchedEvent(id, tenantId, eventId, event, envelope, cause, null, traceparent);
      caused.emitted.add(emitted);
      if (caused.beforeCommit != null) {
        beforeCommit(caused, emitted);
      }
    }
    return eventId;
  }
}
