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
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

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

  private record Caused(EventCause cause, List<DispatchedEvent> emitted) {}

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
    Caused outer = CAUSED.get();
    Caused caused = new Caused(cause, new ArrayList<>());
    CAUSED.set(caused);
    try {
      return new CausedWrite<>(write.get(), List.copyOf(caused.emitted()));
    } finally {
      if (outer == null) {
        CAUSED.remove();
      } else {
        CAUSED.set(outer);
      }
    }
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
    EventCause cause = caused == null ? null : caused.cause();
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
      caused
          .emitted()
          .add(
              new DispatchedEvent(
                  id, tenantId, eventId, event, envelope, cause, null, traceparent));
    }
    return eventId;
  }
}
