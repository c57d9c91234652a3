package com.crmflow.api.event;

import com.crmflow.api.json.JsonColumns;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes an event into {@code event_outbox} inside the caller's transaction, so an event exists
 * exactly when the change that caused it was committed. The stored envelope is the one subscribers
 * receive: {@code {event, timestamp, tenant_id, data}}.
 */
@Component
public class EventOutbox {

  private final JdbcClient jdbc;
  private final JsonColumns json;

  EventOutbox(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  @Transactional(propagation = Propagation.MANDATORY)
  public UUID emit(UUID tenantId, String event, Map<String, Object> data) {
    UUID eventId = UUID.randomUUID();
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("event", event);
    envelope.put("timestamp", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
    envelope.put("tenant_id", tenantId.toString());
    envelope.put("data", data);
    jdbc.sql(
            """
            insert into event_outbox (tenant_id, event_id, event, envelope)
            values (:tenantId, :eventId, :event, :envelope::jsonb)
            """)
        .param("tenantId", tenantId)
        .param("eventId", eventId)
        .param("event", event)
        .param("envelope", json.write(envelope))
        .update();
    return eventId;
  }
}
