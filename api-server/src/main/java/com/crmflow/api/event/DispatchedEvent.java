package com.crmflow.api.event;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An outbox event on its way out: its envelope is {@code {event, timestamp, tenant_id, data}}.
 *
 * @param cause the run whose write produced it, or null (an API client's call)
 * @param granted for an event a run's write produced, the automations it starts, decided in the
 *     write's transaction ({@code event_outbox.granted}); null when that was not decided
 * @param traceparent the W3C traceparent of the request or activity that wrote it (the runs it
 *     starts trace on their own, linked to it); null outside a trace
 */
public record DispatchedEvent(
    long id,
    UUID tenantId,
    UUID eventId,
    String event,
    Map<String, Object> envelope,
    EventCause cause,
    List<UUID> granted,
    String traceparent) {

  public DispatchedEvent(
      long id,
      UUID tenantId,
      UUID eventId,
      String event,
      Map<String, Object> envelope,
      EventCause cause,
      List<UUID> granted) {
    this(id, tenantId, eventId, event, envelope, cause, granted, null);
  }

  public DispatchedEvent(
      long id,
      UUID tenantId,
      UUID eventId,
      String event,
      Map<String, Object> envelope,
      EventCause cause) {
    this(id, tenantId, eventId, event, envelope, cause, null);
  }

  /** Who listens to an event is a matter of its tenant and its name. */
  public record Audience(UUID tenantId, String event) {}

  public Audience audience() {
    return new Audience(tenantId, event);
  }

  @SuppressWarnings("unchecked")
  public Map<String, Object> data() {
    return envelope.get("data") instanceof Map<?, ?> data ? (Map<String, Object>) data : Map.of();
  }
}
