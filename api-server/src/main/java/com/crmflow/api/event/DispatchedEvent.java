package com.crmflow.api.event;

import java.util.Map;
import java.util.UUID;

/**
 * An outbox event on its way out: its envelope is {@code {event, timestamp, tenant_id, data}}.
 *
 * @param cause the run whose write produced it, or null (an API client's call)
 */
public record DispatchedEvent(
    long id,
    UUID tenantId,
    UUID eventId,
    String event,
    Map<String, Object> envelope,
    EventCause cause) {

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
