package com.crmflow.api.run;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.canvas.CanvasRepository;
import com.crmflow.api.canvas.FlowScopes;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.workflow.node.FlowAccess;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * What a reader of runs sees of a run's data. A run can hold the CRM records its flow reads and
 * writes ({@link FlowAccess#recordsHeld}; an enrollment's run and a sequence event's run their
 * contact): its trigger payload (a CRM event's record, an enrollment's contact), its node outputs
 * (a written record, a call's answer that echoes what it was sent, a condition's compared value)
 * and its node inputs (the variables a node read, its config filled in with them). A reader that
 * holds the read scope of each of those record types sees the run as stored; any other reader sees
 * ids, not records: each payload and output keeps only its ids ({@code id}, {@code *_id}, {@code
 * *Id} whose value is a UUID or a number) and the run's mechanics (status codes, a condition's
 * result, a count, a delay's wake-up, the event's name; each a number, a boolean or a short token
 * without spaces), with {@code withheld} listing the scopes that would show the rest. Error texts
 * show as they are. The stored run is not changed.
 */
@Component
class RunVisibility {

  static final String WITHHELD = "withheld";

  /** Keys kept beside the ids: how the run went, not what it carried. */
  private static final Set<String> MECHANICS =
      Set.of(
          "event",
          "timestamp",
          "entity_type",
          "statusCode",
          "status",
          "result",
          "count",
          "until",
          "skipped");

  private static final Pattern UUID_SHAPE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private static final Pattern TOKEN_SHAPE = Pattern.compile("[A-Za-z0-9_.:+-]{1,40}");

  private record CanvasVersion(UUID tenantId, UUID sequenceId, int version) {}

  private final CanvasRepository canvases;
  private final NodeTypes nodeTypes;

  /** The record types each canvas version holds (remembered: a version never changes). */
  private final Cache<CanvasVersion, Set<String>> held =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofHours(1)).build();

  RunVisibility(CanvasRepository canvases, NodeTypes nodeTypes) {
    this.nodeTypes = nodeTypes;
    this.canvases = canvases;
  }

  /** The run (with its node log, if it has one) as this caller may see it. */
  AutomationRun shownTo(Caller caller, AutomationRun run) {
    List<String> missing = missingScopes(caller, run);
    if (missing.isEmpty()) {
      return run;
    }
    List<Map<String, Object>> log = null;
    if (run.nodeLog() != null) {
      log = new ArrayList<>();
      for (Map<String, Object> entry : run.nodeLog()) {
        Map<String, Object> shown = new LinkedHashMap<>(entry);
        if (entry.get("output") != null) {
          shown.put("output", idsOnly(entry.get("output"), missing));
        }
        if (entry.get("input") != null) {
          shown.put("input", inputShown(entry.get("input"), missing));
        }
        log.add(shown);
      }
    }
    return new AutomationRun(
        run.id(),
        run.tenantId(),
        run.sequenceId(),
        run.canvasVersion(),
        run.triggerNodeId(),
        run.startNodeId(),
        idsOnly(run.triggerPayload(), missing),
        run.cause(),
        run.status(),
        log,
        run.error(),
        run.workflowId(),
        run.retryOf(),
        run.enrollmentId(),
        run.startedAt(),
        run.completedAt(),
        run.createdAt(),
        run.traceId());
  }

  /** The read scopes of the records the run can hold that the caller lacks, sorted. */
  List<String> missingScopes(Caller caller, AutomationRun run) {
    Set<String> records =
        new TreeSet<>(
            held.get(
                new CanvasVersion(run.tenantId(), run.sequenceId(), run.canvasVersion()),
                key ->
                    canvases
                        .version(key.tenantId(), key.sequenceId(), key.version())
                        .map(version -> FlowAccess.of(version.toCanvas(), nodeTypes).recordsHeld())
                        // a version that cannot be read: every record type counts
                        .orElse(Set.of("contact", "account", "opportunity", "note", "task"))));
    if (run.enrollmentId() != null || records.contains("sequence")) {
      // an enrollment's payload and a sequence event's data name the enrolled contact
      records.add(FlowAccess.CONTACT);
    }
    Set<String> missing = new TreeSet<>();
    for (String record : records) {
      Scope scope = FlowScopes.readScopeOf(record);
      if (scope == null) {
        if (!caller.scopes().contains(Scope.ALL)) {
          missing.add(Scope.ALL); // a record type without a read scope: only * shows it
        }
      } else if (!caller.has(scope)) {
        missing.add(scope.value());
      }
    }
    return List.copyOf(missing);
  }

  /**
   * A node's input for a reader without the records' scopes: its config is the designer's, filled
   * in with record data under keys the designer chose (a header named {@code status} may carry a
   * phone number), so it is withheld whole; what the node read shows its ids, as outputs do.
   */
  private static Object inputShown(Object input, List<String> missing) {
    if (!(input instanceof Map<?, ?> map)) {
      return idsOnly(input, missing);
    }
    Map<String, Object> shown = new LinkedHashMap<>();
    if (map.get("read") != null) {
      shown.put("read", idsOnly(map.get("read"), missing));
    }
    shown.put(WITHHELD, missing);
    return shown;
  }

  /** The ids and mechanics of a value, with {@code withheld} where anything was left out. */
  static Object idsOnly(Object value, List<String> missing) {
    Object kept = keep(value);
    if (Objects.equals(kept, value)) {
      return value;
    }
    Map<String, Object> shown =
        kept instanceof Map<?, ?> map
            ? new LinkedHashMap<>(asStringMap(map))
            : new LinkedHashMap<>();
    shown.put(WITHHELD, missing);
    return shown;
  }

  private static Object keep(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> kept = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            String key = String.valueOf(k);
            if (v instanceof Map<?, ?> || v instanceof List<?>) {
              Object inner = keep(v);
              if (!(inner instanceof Map<?, ?> m && m.isEmpty())
                  && !(inner instanceof List<?> l && l.isEmpty())) {
                kept.put(key, inner);
              }
            } else if ((isId(key) && isIdValue(v)) || (MECHANICS.contains(key) && isToken(v))) {
              kept.put(key, v);
            }
          });
      return kept;
    }
    if (value instanceof List<?> list) {
      List<Object> kept = new ArrayList<>();
      for (Object item : list) {
        if (item instanceof Map<?, ?> || item instanceof List<?>) {
          kept.add(keep(item));
        }
      }
      return kept;
    }
    return null; // a bare value says nothing of the run's mechanics
  }

  private static boolean isId(String key) {
    return key.equals("id") || key.endsWith("_id") || key.endsWith("Id");
  }

  /** An id's value: a UUID or a number. Any other value under an id's name is data. */
  private static boolean isIdValue(Object value) {
    return value instanceof Number
        || (value instanceof String s && UUID_SHAPE.matcher(s).matches());
  }

  /**
   * A mechanics value: a number, a boolean, or a short token (a status, an event name, a
   * timestamp), never text with spaces or an address.
   */
  private static boolean isToken(Object value) {
    return value instanceof Number
        || value instanceof Boolean
        || (value instanceof String s && TOKEN_SHAPE.matcher(s).matches());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asStringMap(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }
}
