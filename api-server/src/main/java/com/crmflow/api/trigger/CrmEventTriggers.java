package com.crmflow.api.trigger;

import com.crmflow.api.event.DispatchedEvent;
import com.crmflow.api.event.EventCause;
import com.crmflow.api.event.EventFilter;
import com.crmflow.api.event.OutboxEventHandler;
import com.crmflow.api.flow.FlowSettings;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.reenroll.Reenrollment;
import com.crmflow.api.reenroll.RunRecords;
import com.crmflow.api.run.AutomationRun;
import com.crmflow.api.run.RunBeginnings;
import com.crmflow.api.run.RunRepository;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.tracing.LinkedTraces;
import com.crmflow.workflow.event.EventNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * data}}; the run's cause, when a run's write produced the event, is stored beside it ({@code
 * automation_run.cause}).
 *
 * <p>Loops end: an event a run's write produced never starts an automation whose run led to it (the
 * run's own automation, or one earlier in its chain: A → B → A), nor any automation once the chain
 * is {@code crm.events.max-chain-depth} runs long, nor any once {@code
 * crm.events.max-runs-per-cause} runs were started for the chain's root (the fan-out of several
 * automations that each start the others). Behind those, whatever the cause, an automation starts
 * at most {@code crm.events.max-runs-per-record-per-minute} runs for one record in a minute ({@link
 * RecordBreaker}). Such a start is refused, logged and counted ({@code crm.events.starts.refused},
 * tagged by reason); the write that produced the event lists it in its node's output, or in the
 * answer of the API call that made it ({@link #decide}). The public trigger applies the same rules
 * to a call that carries a run's cause ({@link #refusalOfCall}).
 */
@Component
public class CrmEventTriggers implements OutboxEventHandler {

  private static final Logger log = LoggerFactory.getLogger(CrmEventTriggers.class);

  /** The automation is in the chain of runs that led to the event. */
  public static final String CYCLE = "cycle";

  /** The chain of runs that led to the event is as long as it may be. */
  public static final String DEPTH = "depth";

  /** The runs started for the chain's root are as many as they may be. */
  public static final String BUDGET = "budget";

  /** The automation started as many runs for the event's record in this minute as it may. */
  public static final String BREAKER = RecordBreaker.BREAKER;

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RunBeginnings beginnings;
  private final LinkedTraces traces;
  private final SequenceRepository sequences;
  private final RecordBreaker breaker;
  private final Reenrollment reenrollment;
  private final int maxChainDepth;
  private final int maxRunsPerCause;
  private final Map<String, Counter> refused = new HashMap<>();

  CrmEventTriggers(
      JdbcClient jdbc,
      JsonColumns json,
      RunBeginnings beginnings,
      SequenceRepository sequences,
      CrmProperties properties,
      MeterRegistry meters,
      LinkedTraces traces,
      RecordBreaker breaker,
      Reenrollment reenrollment) {
    this.reenrollment = reenrollment;
    this.traces = traces;
    this.breaker = breaker;
    this.jdbc = jdbc;
    this.json = json;
    this.beginnings = beginnings;
    this.sequences = sequences;
    this.maxChainDepth = properties.events().maxChainDepth();
    this.maxRunsPerCause = properties.events().maxRunsPerCause();
    for (String reason : List.of(CYCLE, DEPTH, BUDGET, BREAKER)) {
      refused.put(
          reason,
          Counter.builder("crm.events.starts.refused")
              .description(
                  "Automation starts refused because a run's write produced the event and the"
                      + " automation led to that run (cycle), the chain is as long as"
                      + " crm.events.max-chain-depth (depth), its root started as many runs as"
                      + " crm.events.max-runs-per-cause (budget), or the automation started as"
                      + " many runs for the event's record in this minute as"
                      + " crm.events.max-runs-per-record-per-minute (breaker)")
              .tag("reason", reason)
              .register(meters));
    }
  }

  /** An active automation's crm_event_trigger for one event name, with the flow's settings. */
  record Listening(
      UUID sequenceId,
      int version,
      String nodeId,
      Map<String, Object> config,
      FlowSettings settings) {}

  @Override
  public List<Runnable> dispatch(List<DispatchedEvent> events) {
    Map<DispatchedEvent.Audience, List<Listening>> listening = new HashMap<>();
    // runs started per root so far: read once per batch, counted on as this batch starts more
    Map<UUID, Integer> spent = new HashMap<>();
    for (DispatchedEvent event : events) {
      List<Listening> triggers =
          listening.computeIfAbsent(
              event.audience(), audience -> listening(audience.tenantId(), audience.event()));
      EventCause cause = event.cause();
      for (Listening trigger : triggers) {
        if (!matches(trigger.config(), event.data())) {
          continue;
        }
        if (event.granted() != null) {
          // decided when the event was written, and refusals reported there
          if (!event.granted().contains(trigger.sequenceId())) {
            continue;
          }
        } else {
          String refusal = refusal(cause, trigger.sequenceId(), maxChainDepth);
          if (refusal == null
              && cause != null
              && spent.computeIfAbsent(cause.root(), root -> spent(event.tenantId(), root))
                  >= maxRunsPerCause) {
            refusal = BUDGET;
          }
          if (refusal == null && !breaker.admits(event.tenantId(), trigger.sequenceId(), event)) {
            refusal = BREAKER;
          }
          if (refusal != null) {
            refused(cause, trigger.sequenceId(), refusal, "Event " + event.eventId());
            continue;
          }
        }
        UUID runId =
            UUID.nameUUIDFromBytes(
                ("crm-event:" + event.eventId() + ":" + trigger.sequenceId())
                    .getBytes(StandardCharsets.UTF_8));
        if (trigger.settings().limitsReenrollment()) {
          Optional<Reenrollment.Refusal> held =
              reenrollment.claim(
                  event.tenantId(),
                  trigger.sequenceId(),
                  trigger.settings(),
                  RunRecords.of(EventNames.recordOf(event.event()), event.envelope()),
                  runId);
          if (held.isPresent()) {
            log.info(
                "Event {} starts no run of automation {}: {}",
                event.eventId(),
                trigger.sequenceId(),
                held.get().message());
            continue;
          }
        }
        // the run's trace starts here, linked to the request or activity that wrote the event;
        // its start waits for the dispatch's commit
        Optional<AutomationRun> inserted =
            traces.inNewTraceFrom(
                "crm event " + event.event(),
                event.traceparent(),
                () ->
                    beginnings.begin(
                        RunBeginnings.Beginning.of(
                            new RunRepository.NewRun(
                                    runId,
                                    event.tenantId(),
                                    trigger.sequenceId(),
                                    trigger.version(),
                                    trigger.nodeId(),
                                    trigger.nodeId(),
                                    event.envelope(),
                                    "event:" + event.eventId(),
                                    null)
                                .causedBy(cause == null ? null : cause.asMap()),
                            RunBeginnings.Start.SOON)));
        if (inserted.isPresent() && cause != null && event.granted() == null) {
          spent.merge(cause.root(), 1, Integer::sum);
        }
      }
    }
    return List.of(); // each run begun starts once the dispatch commits (RunBeginnings)
  }

  private void refused(EventCause cause, UUID sequenceId, String refusal, String what) {
    refused.get(refusal).increment();
    log.info(
        "{} of {} starts no run of automation {}: {}",
        what,
        cause == null ? "a client" : "run " + cause.runId(),
        sequenceId,
        refusal);
  }

  /**
   * Holds, until the calling transaction ends, the right to spend the runs of the cause's root: the
   * writes of one root decide their starts ({@link #decide}) one after the other, so that together
   * they never grant more than crm.events.max-runs-per-cause.
   */
  public void lockRoot(UUID tenantId, EventCause cause) {
    jdbc.sql("select 1 from pg_advisory_xact_lock(hashtextextended(:key, 0))")
        .param("key", "cause-root:" + tenantId + ":" + cause.root())
        .query(Integer.class)
        .single();
  }

  /**
   * Why a call of the automation's public trigger that carries {@code cause} (a run's http_request
   * or a webhook delivery of a run's event, aimed at the service itself) must not start a run: the
   * rules of events, the run counted against the root's budget. Nothing is logged or counted here:
   * a repeated delivery is answered with its earlier run whatever these rules say of it now, so the
   * caller reports a refusal it answers with through {@link #callRefused}.
   *
   * @return null when it may start; otherwise {@code {reason, message}}
   */
  public Map<String, String> refusalOfCall(UUID tenantId, EventCause cause, UUID sequenceId) {
    String refusal = refusal(cause, sequenceId, maxChainDepth);
    if (refusal == null && spent(tenantId, cause.root()) >= maxRunsPerCause) {
      refusal = BUDGET;
    }
    if (refusal == null) {
      return null;
    }
    Map<String, String> answer = new LinkedHashMap<>();
    answer.put("reason", refusal);
    answer.put("message", callMessage(cause, sequenceId, refusal));
    return answer;
  }

  /** Logs and counts a call {@link #refusalOfCall} refused, as its caller answers with it. */
  public void callRefused(EventCause cause, UUID sequenceId, String reason) {
    refused(cause, sequenceId, reason, "A call of the public trigger");
  }

  /**
   * Why a call starts no run, in words for whoever made it: the public trigger answers anyone who
   * knows its address, so the message names no automation of the tenant and no run (the log line of
   * {@link #refused} does): a {@code CRM-Cause} token stays opaque to whoever holds it.
   */
  private String callMessage(EventCause cause, UUID sequenceId, String refusal) {
    String not = "This call starts no run";
    if (DEPTH.equals(refusal)) {
      return not
          + ": the run it comes from is run "
          + cause.depth()
          + " of a chain of runs started by each other, the most crm.events.max-chain-depth ("
          + maxChainDepth
          + ") allows";
    }
    if (BUDGET.equals(refusal)) {
      return not
          + ": the chains of runs started by each other from one cause have started "
          + maxRunsPerCause
          + " runs, the most crm.events.max-runs-per-cause ("
          + maxRunsPerCause
          + ") allows";
    }
    if (sequenceId.equals(cause.sequenceId())) {
      return not
          + ": the run it comes from is a run of this trigger's automation, and a call a run"
          + " makes never starts that run's automation again";
    }
    return not
        + ": this trigger's automation led to the run it comes from, and a call a run makes never"
        + " starts an automation of the chain that led to it again";
  }

  /**
   * The runs spent from the root's budget: those started by causes of that root and those that
   * written events not dispatched yet will start. One statement, so a dispatch that turns the one
   * into the other is seen before or after, never half.
   */
  private int spent(UUID tenantId, UUID root) {
    return jdbc.sql(
            """
            select (select count(*) from automation_run
                    where tenant_id = :tenantId and cause ->> 'root' = :root)
                 + (select coalesce(sum(jsonb_array_length(granted)), 0) from event_outbox
                    where tenant_id = :tenantId and dispatched_at is null
                      and granted is not null and cause ->> 'root' = :root)
            """)
        .param("tenantId", tenantId)
        .param("root", root.toString())
        .query(Integer.class)
        .single();
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
   * Decides which automations these events, emitted by one write of a run, start, in the write's
   * transaction (after {@link #lockRoot}): the automations listening now whose filter matches, less
   * those the loop rules refuse (cycle, depth, and budget: the root's runs spent so far, these
   * events' starts included). Stores the decision with each event ({@code event_outbox.granted}),
   * which the dispatcher follows, counts and logs the refusals, and returns them as the writing
   * node's output lists them: {@code [{event, event_id, automation_id, automation_name, reason,
   * message}]}. An automation activated between this write and the dispatch of its events is not
   * started by them.
   */
  public List<Map<String, Object>> decide(List<DispatchedEvent> events) {
    List<Map<String, Object>> notStarted = new ArrayList<>();
    Map<DispatchedEvent.Audience, List<Listening>> listening = new HashMap<>();
    Map<UUID, String> names = new HashMap<>();
    Map<UUID, Integer> spent = new HashMap<>();
    for (DispatchedEvent event : events) {
      EventCause cause = event.cause();
      if (cause == null) {
        continue;
      }
      List<Listening> triggers =
          listening.computeIfAbsent(
              event.audience(), audience -> listening(audience.tenantId(), audience.event()));
      List<String> granted = new ArrayList<>();
      for (Listening trigger : triggers) {
        if (!matches(trigger.config(), event.data())) {
          continue;
        }
        String refusal = refusal(cause, trigger.sequenceId(), maxChainDepth);
        if (refusal == null) {
          int before = spent.computeIfAbsent(cause.root(), root -> spent(event.tenantId(), root));
          if (before >= maxRunsPerCause) {
            refusal = BUDGET;
          } else if (!breaker.admits(event.tenantId(), trigger.sequenceId(), event)) {
            refusal = BREAKER;
          } else {
            spent.put(cause.root(), before + 1);
            granted.add(trigger.sequenceId().toString());
            continue;
          }
        }
        refused(cause, trigger.sequenceId(), refusal, "Event " + event.eventId());
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("event", event.event());
        entry.put("event_id", event.eventId().toString());
        entry.put("automation_id", trigger.sequenceId().toString());
        entry.put("automation_name", name(event.tenantId(), trigger.sequenceId(), names));
        entry.put("reason", refusal);
        entry.put(
            "message",
            message(
                event.event() + " from this write",
                event.tenantId(),
                cause,
                trigger.sequenceId(),
                refusal,
                names));
        notStarted.add(entry);
      }
      jdbc.sql("update event_outbox set granted = :granted::jsonb where id = :id")
          .param("granted", json.write(granted))
          .param("id", event.id())
          .update();
    }
    return notStarted;
  }

  private String message(
      String subject,
      UUID tenantId,
      EventCause cause,
      UUID sequenceId,
      String refusal,
      Map<UUID, String> names) {
    String chain =
        cause.chain().stream()
            .map(id -> "\"" + name(tenantId, id, names) + "\"")
            .collect(Collectors.joining(" -> "));
    String not =
        subject + " starts no run of automation \"" + name(tenantId, sequenceId, names) + "\"";
    if (DEPTH.equals(refusal)) {
      return not
          + ": this run is run "
          + cause.depth()
          + " of a chain of runs started by each other's writes"
          + " ("
          + chain
          + "), the most crm.events.max-chain-depth ("
          + maxChainDepth
          + ") allows";
    }
    if (BREAKER.equals(refusal)) {
      return not
          + ": it has started "
          + breaker.limit()
          + " runs for this event's record in this minute, the most"
          + " crm.events.max-runs-per-record-per-minute ("
          + breaker.limit()
          + ") allows";
    }
    if (BUDGET.equals(refusal)) {
      return not
          + ": the chains of runs started by each other's writes from one cause (this one: "
          + chain
          + ") have started "
          + maxRunsPerCause
          + " runs, the most crm.events.max-runs-per-cause ("
          + maxRunsPerCause
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
        + "), and an event a run's write produces never starts an automation of the chain that"
        + " led to it again";
  }

  private String name(UUID tenantId, UUID sequenceId, Map<UUID, String> names) {
    return names.computeIfAbsent(
        sequenceId,
        id -> sequences.find(tenantId, id).map(Sequence::name).orElse("(deleted flow)"));
  }

  static boolean matches(Map<String, Object> config, Map<String, Object> data) {
    return EventFilter.matches(config.get("filterField"), config.get("filterValue"), data);
  }

  private List<Listening> listening(UUID tenantId, String event) {
    return jdbc.sql(
            """
            select s.id, s.current_version, n ->> 'id' as node_id,
                   (n -> 'data' -> 'config')::text as config, cv.settings::text as settings
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
                        : json.readMap(rs.getString("config")),
                    FlowSettings.fromStored(
                        rs.getString("settings") == null
                            ? null
                            : json.readMap(rs.getString("settings")))))
        .list();
  }
}
