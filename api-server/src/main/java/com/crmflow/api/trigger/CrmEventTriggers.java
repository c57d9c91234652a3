package com.crmflow.api.trigger;

import com.crmflow.api.config.CrmProperties;
import com.crmflow.api.event.DispatchedEvent;
import com.crmflow.api.event.EventCause;
import com.crmflow.api.event.OutboxEventHandler;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.run.RunRepository;
import com.crmflow.api.run.RunStarter;
import com.crmflow.api.sequence.Sequence;
import com.crmflow.api.sequence.SequenceRepository;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * crm_event_trigger: every event starts a run of each active automation whose trigger names the
 * event and whose filter matches. The run's id (so its workflow id) derives from event and
 * automation, and the event id is the run's idempotency key: dispatching an event again starts
 * nothing new. The trigger payload is the event's envelope {@code {event, timestamp, tenant_id,
 * data}}, with {@code cause} added when a run's write produced the event.
 *
 * <p>Loops end: an event a run's write produced never starts an automation whose run led to it (the
 * run's own automation, or one earlier in its chain: A → B → A), nor any automation once the chain
 * is {@code crm.events.max-chain-depth} runs long. Such a start is refused, logged and counted
 * ({@code crm.events.starts.refused}, tagged by reason); the write that produced the event lists it
 * in its node's output ({@link #notStarted}).
 */
@Component
public class CrmEventTriggers implements OutboxEventHandler {

  private static final Logger log = LoggerFactory.getLogger(CrmEventTriggers.class);

  /** The automation is in the chain of runs that led to the event. */
  public static final String CYCLE = "cycle";

  /** The chain of runs that led to the event is as long as it may be. */
  public static final String DEPTH = "depth";

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RunRepository runs;
  private final RunStarter starter;
  private final SequenceRepository sequences;
  private final int maxChainDepth;
  private final Map<String, Counter> refused = new HashMap<>();

  CrmEventTriggers(
      JdbcClient jdbc,
      JsonColumns json,
      RunRepository runs,
      RunStarter starter,
      SequenceRepository sequences,
      CrmProperties properties,
      MeterRegistry meters) {
    this.jdbc = jdbc;
    this.json = json;
    this.runs = runs;
    this.starter = starter;
    this.sequences = sequences;
    this.maxChainDepth = properties.events().maxChainDepth();
    for (String reason : List.of(CYCLE, DEPTH)) {
      refused.put(
          reason,
          Counter.builder("crm.events.starts.refused")
              .description(
                  "Automation starts refused because a run's write produced the event and the"
                      + " automation led to that run (cycle) or the chain is as long as"
                      + " crm.events.max-chain-depth (depth)")
              .tag("reason", reason)
              .register(meters));
    }
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
              event.audience(), audience -> listening(audience.tenantId(), audience.event(), null));
      for (Listening trigger : triggers) {
        if (!matches(trigger.config(), event.data())) {
          continue;
        }
        String refusal = refusal(event.cause(), trigger.sequenceId(), maxChainDepth);
        if (refusal != null) {
          refused.get(refusal).increment();
          log.info(
              "Event {} ({}) of run {} starts no run of automation {}: {}",
              event.eventId(),
              event.event(),
              event.cause().runId(),
              trigger.sequenceId(),
              refusal);
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
                    payload(event),
                    "event:" + event.eventId(),
                    null))
            .ifPresent(run -> starts.add(() -> starter.startSoon(run, null)));
      }
    }
    return starts;
  }

  /** The envelope, with the event's cause (if any) as {@code cause}. */
  private static Map<String, Object> payload(DispatchedEvent event) {
    if (event.cause() == null) {
      return event.envelope();
    }
    Map<String, Object> payload = new LinkedHashMap<>(event.envelope());
    payload.put("cause", event.cause().asMap());
    return payload;
  }

  /**
   * Why an event of that cause must not start a run of the automation ({@link #CYCLE}, {@link
   * #DEPTH}), or null when it may: an event no run produced always may.
   */
  static String refusal(EventCause cause, UUID sequenceId, int maxChainDepth) {
    if (cause == null) {
      return null;
    }
    if (cause.leadsThrough(sequenceId)) {
      return CYCLE;
    }
    return cause.depth() >= maxChainDepth ? DEPTH : null;
  }

  /**
   * The runs that these events, emitted by one write of a run, will not start, with why, as the
   * writing node's output lists them: {@code [{event, event_id, automation_id, automation_name,
   * reason, message}]}. Reads the automations listening now, so an automation activated or paused
   * between this write and the dispatch of its events may be missing or listed wrongly; the
   * dispatcher decides by the same rule.
   */
  public List<Map<String, Object>> notStarted(List<DispatchedEvent> events) {
    List<Map<String, Object>> notStarted = new ArrayList<>();
    Map<List<Object>, List<Listening>> listening = new HashMap<>();
    Map<UUID, String> names = new HashMap<>();
    for (DispatchedEvent event : events) {
      if (event.cause() == null) {
        continue;
      }
      // short of the depth limit only the chain's automations can be refused: read just those
      List<UUID> only = event.cause().depth() < maxChainDepth ? event.cause().chain() : null;
      List<Listening> triggers =
          listening.computeIfAbsent(
              Arrays.asList(event.audience(), only),
              key -> listening(event.tenantId(), event.event(), only));
      for (Listening trigger : triggers) {
        String refusal = refusal(event.cause(), trigger.sequenceId(), maxChainDepth);
        if (refusal == null || !matches(trigger.config(), event.data())) {
          continue;
        }
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("event", event.event());
        entry.put("event_id", event.eventId().toString());
        entry.put("automation_id", trigger.sequenceId().toString());
        entry.put("automation_name", name(event.tenantId(), trigger.sequenceId(), names));
        entry.put("reason", refusal);
        entry.put("message", message(event, trigger.sequenceId(), refusal, names));
        notStarted.add(entry);
      }
    }
    return notStarted;
  }

  private String message(
      DispatchedEvent event, UUID sequenceId, String refusal, Map<UUID, String> names) {
    EventCause cause = event.cause();
    String chain =
        cause.chain().stream()
            .map(id -> "\"" + name(event.tenantId(), id, names) + "\"")
            .collect(Collectors.joining(" -> "));
    String not =
        event.event()
            + " from this write starts no run of automation \""
            + name(event.tenantId(), sequenceId, names)
            + "\"";
    if (DEPTH.equals(refusal)) {
      return not
          + ": this run is run "
          + cause.depth()
          + " of a chain of runs started by each other's writes ("
          + chain
          + "), the most crm.events.max-chain-depth ("
          + maxChainDepth
          + ") allows";
    }
    if (sequenceId.equals(cause.sequenceId())) {
      return not
          + ": this run is one of its runs, and an event a run's write produces never starts"
          + " that run's automation again (chain "
          + chain
          + ")";
    }
    return not
        + ": a run of it led to this run (chain "
        + chain
        + "), and an event a run's write produces never starts an automation of the chain"
        + " that led to it again";
  }

  private String name(UUID tenantId, UUID sequenceId, Map<UUID, String> names) {
    return names.computeIfAbsent(
        sequenceId,
        id -> sequences.find(tenantId, id).map(Sequence::name).orElse("(deleted flow)"));
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

  /**
   * @param only the automations to look at, or null for every one
   */
  private List<Listening> listening(UUID tenantId, String event, List<UUID> only) {
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
              and (cast(:only as uuid[]) is null or s.id = any(cast(:only as uuid[])))
            order by s.created_at, s.id
            """)
        .param("tenantId", tenantId)
        .param("event", event)
        .param(
            "only", only == null ? null : only.stream().map(UUID::toString).toArray(String[]::new))
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
