package com.crmflow.api.trigger;

import com.crmflow.api.event.DispatchedEvent;
import com.crmflow.api.event.OutboxEventHandler;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.run.RunRepository;
import com.crmflow.api.run.RunStarter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * crm_event_trigger: every event starts a run of each active automation whose trigger names the
 * event and whose filter matches. The run's id (so its workflow id) derives from event and
 * automation, and the event id is the run's idempotency key: dispatching an event again starts
 * nothing new. The trigger payload is the event's envelope {@code {event, timestamp, tenant_id,
 * data}}.
 */
@Component
class CrmEventTriggers implements OutboxEventHandler {

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RunRepository runs;
  private final RunStarter starter;

  CrmEventTriggers(JdbcClient jdbc, JsonColumns json, RunRepository runs, RunStarter starter) {
    this.jdbc = jdbc;
    this.json = json;
    this.runs = runs;
    this.starter = starter;
  }

  /** An active automation's crm_event_trigger for one event name. */
  record Listening(UUID sequenceId, int version, String nodeId, Map<String, Object> config) {}

  @Override
  public List<Runnable> dispatch(List<DispatchedEvent> events) {
    Map<DispatchedEvent.Audience, List<Listening>> listening = new HashMap<>();
    List<Runnable> starts = new ArrayList<>();
    for (DispatchedEvent event : events) {
      List<Listening> triggers =
          listening.computeIfAbsent(
              event.audience(), audience -> listening(audience.tenantId(), audience.event()));
      for (Listening trigger : triggers) {
        if (!matches(trigger.config(), event.data())) {
          continue;
        }
        UUID runId =
            UUID.nameUUIDFromBytes(
                ("crm-event:" + event.eventId() + ":" + trigger.sequenceId())
                    .getBytes(StandardCharsets.UTF_8));
        runs.insert(
                new RunRepository.NewRun(
                    runId,
                    event.tenantId(),
                    trigger.sequenceId(),
                    trigger.version(),
                    trigger.nodeId(),
                    trigger.nodeId(),
                    event.envelope(),
                    "event:" + event.eventId(),
                    null))
            .ifPresent(run -> starts.add(() -> starter.startSoon(run, null)));
      }
    }
    return starts;
  }

  /**
   * No filterField: every event matches. filterField with filterValue: the field (a dot path into
   * {@code data}) equals the value, compared as text. filterField alone: the field is present and
   * not empty.
   */
  static boolean matches(Map<String, Object> config, Map<String, Object> data) {
    Object field = config.get("filterField");
    if (!(field instanceof String path) || path.isBlank()) {
      return true;
    }
    Object value = data;
    for (String part : path.trim().split("\\.")) {
      value = value instanceof Map<?, ?> map ? map.get(part) : null;
    }
    Object wanted = config.get("filterValue");
    if (wanted == null || String.valueOf(wanted).isEmpty()) {
      return value != null && !String.valueOf(value).isEmpty();
    }
    return value != null && Objects.equals(String.valueOf(value), String.valueOf(wanted));
  }

  private List<Listening> listening(UUID tenantId, String event) {
    return jdbc.sql(
            """
            select s.id, s.current_version, n ->> 'id' as node_id,
                   (n -> 'data' -> 'config')::text as config
            from sequence s
            join canvas_version cv on cv.sequence_id = s.id and cv.version = s.current_version
            cross join lateral jsonb_array_elements(cv.nodes) n
            where s.tenant_id = :tenantId and s.status = 'active' and s.flow_type = 'automation'
              and n ->> 'type' = 'crm_event_trigger'
              and n -> 'data' -> 'config' ->> 'eventType' = :event
            order by s.created_at, s.id
            """)
        .param("tenantId", tenantId)
        .param("event", event)
        .query(
            (rs, row) ->
                new Listening(
                    rs.getObject("id", UUID.class),
                    rs.getInt("current_version"),
                    rs.getString("node_id"),
                    rs.getString("config") == null
                        ? Map.of()
                        : json.readMap(rs.getString("config"))))
        .list();
  }
}
