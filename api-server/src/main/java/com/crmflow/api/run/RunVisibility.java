package com.crmflow.api.run;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.Scope;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.FlowScopes;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * What a reader of runs sees of a run's data. A run can hold the CRM records its flow reads and
 * writes: its trigger payload (a CRM event's record, an enrollment's contact), its node outputs (a
 * written record, a call's answer that echoes what it was sent, a transform's mapped values), its
 * node inputs (the variables a node read, its config filled in with them) and its errors (a peer's
 * answer, a url filled in with a contact's fields). Which records each node's entry can hold comes
 * from the flow-access analysis of the run's canvas version ({@link FlowAccess#heldByNode}): what
 * the node reads and writes, and what the variables it reads hold, whatever their names.
 *
 * <p>A reader that holds the read scope of every record type the run holds sees the run as stored.
 * For any other reader, each node entry whose node holds a record type the reader cannot read
 * shows: of its output only the keys its type makes itself ({@link NodeDescriptor#mechanics}: a
 * status code, a branch, the id of what it wrote), its input not at all, and its error reduced to
 * the HTTP status or "failed"; each with {@code withheld} naming the scopes that would show the
 * rest. The run's error, which repeats its failed node's, is reduced alike. The trigger payload
 * keeps its ids ({@code id}, {@code *_id}, {@code *Id} whose value is a UUID or a number) and a CRM
 * event's {@code event} and {@code timestamp}. Nodes that hold no such record show whole. The
 * stored run is not changed.
 */
@Component
public class RunVisibility {

  static final String WITHHELD = "withheld";

  /** A payload's top-level keys kept beside its ids: a CRM event envelope's own. */
  private static final Set<String> ENVELOPE = Set.of("event", "timestamp");

  /** An entry's output key the interpreter writes for a node it skipped: why. */
  private static final String SKIPPED = "skipped";

  /** Every record type, for a canvas version that cannot be read. */
  private static final Set<String> EVERY_RECORD =
      Set.of("contact", "account", "opportunity", "note", "task", "conversation", "sequence");

  private static final Pattern UUID_SHAPE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  /** How the run's error names its failed node: {@code node <id> (<type>) failed: <message>}. */
  private static final Pattern NODE_FAILED =
      Pattern.compile("(node (.+?) \\(([a-z0-9_]+)\\) failed: )(.*)", Pattern.DOTALL);

  private static final Pattern HTTP_STATUS = Pattern.compile("HTTP (\\d{3})\\b");

  private record Key(UUID tenantId, UUID sequenceId, int version, boolean enrollment) {}

  /**
   * What a run of one canvas version can hold.
   *
   * @param byNode the record types each node's entry can hold, by node id
   * @param all every record type the run can hold, its payload's included
   */
  private record Holdings(Map<String, Set<String>> byNode, Set<String> all) {}

  private final CanvasRepository canvases;
  private final NodeTypes nodeTypes;

  /** Per canvas version (remembered: a version never changes). */
  private final Cache<Key, Holdings> held =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofHours(1)).build();

  RunVisibility(CanvasRepository canvases, NodeTypes nodeTypes) {
    this.nodeTypes = nodeTypes;
    this.canvases = canvases;
  }

  /** The run (with its node log, if it has one) as this caller may see it. */
  public AutomationRun shownTo(Caller caller, AutomationRun run) {
    Holdings holdings = holdings(run);
    List<String> missing = missing(caller, holdings.all());
    if (missing.isEmpty()) {
      return run;
    }
    List<Map<String, Object>> log = null;
    if (run.nodeLog() != null) {
      log = new ArrayList<>();
      for (Map<String, Object> entry : run.nodeLog()) {
        log.add(entryShown(caller, entry, holdings));
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
        errorShown(caller, run.error(), holdings, missing),
        run.workflowId(),
        run.retryOf(),
        run.enrollmentId(),
        run.startedAt(),
        run.completedAt(),
        run.createdAt(),
        run.traceId(),
        run.test(),
        run.exit(),
        run.movedFromVersions());
  }

  /** The read scopes of the records the run can hold that the caller lacks, sorted. */
  List<String> missingScopes(Caller caller, AutomationRun run) {
    return missing(caller, holdings(run).all());
  }

  private Holdings holdings(AutomationRun run) {
    return held.get(
        new Key(run.tenantId(), run.sequenceId(), run.canvasVersion(), run.enrollmentId() != null),
        key ->
            canvases
                .version(key.tenantId(), key.sequenceId(), key.version())
                .map(version -> holdingsOf(version.toCanvas(), key.enrollment(), nodeTypes))
                .orElse(new Holdings(Map.of(), EVERY_RECORD)));
  }

  /**
   * What a run of the canvas can hold: per node, from the flow-access analysis, with an
   * enrollment's payload (and a sequence event's data) naming the enrolled contact.
   */
  static Holdings holdingsOf(Canvas canvas, boolean enrollment, NodeCatalog catalog) {
    FlowAccess access = FlowAccess.of(canvas, catalog);
    Set<String> payload = new TreeSet<>();
    if (enrollment || access.recordsHeld().contains("sequence")) {
      payload.add(FlowAccess.CONTACT);
    }
    Map<String, Set<String>> byNode = FlowAccess.heldByNode(canvas, catalog, payload);
    Set<String> all = new TreeSet<>(access.recordsHeld());
    all.addAll(payload);
    byNode.values().forEach(all::addAll);
    return new Holdings(byNode, Set.copyOf(all));
  }

  /** The read scopes of these record types that the caller lacks, sorted. */
  private static List<String> missing(Caller caller, Set<String> records) {
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
   * A node's log entry: whole when the caller may read all its node holds; else its output's keys
   * of the node's own making, no input, and its error reduced.
   */
  private Map<String, Object> entryShown(
      Caller caller, Map<String, Object> entry, Holdings holdings) {
    String nodeId = String.valueOf(entry.get("nodeId"));
    List<String> missing = missing(caller, holdings.byNode().getOrDefault(nodeId, holdings.all()));
    if (missing.isEmpty()) {
      return entry;
    }
    Map<String, Object> shown = new LinkedHashMap<>(entry);
    if (entry.get("output") != null) {
      shown.put(
          "output", ownMaking(String.valueOf(entry.get("nodeType")), entry.get("output"), missing));
    }
    if (entry.get("input") != null) {
      shown.put("input", inputShown(entry.get("input"), missing));
    }
    if (entry.get("error") instanceof String error) {
      shown.put("error", reduced(error, missing));
    }
    return shown;
  }

  /**
   * A node's input: its config is the designer's, filled in with the data the node read under keys
   * the designer chose, so it is withheld whole; of what the node read, the ids show.
   */
  private static Object inputShown(Object input, List<String> missing) {
    Map<String, Object> shown = new LinkedHashMap<>();
    if (input instanceof Map<?, ?> map && map.get("read") != null) {
      shown.put("read", idsOnly(map.get("read"), missing));
    }
    shown.put(WITHHELD, missing);
    return shown;
  }

  /** Of an output, the keys its node type makes itself, with {@code withheld} if any went. */
  private Object ownMaking(String nodeType, Object output, List<String> missing) {
    if (!(output instanceof Map<?, ?> map)) {
      return Map.of(WITHHELD, missing);
    }
    Set<String> own =
        new HashSet<>(
            nodeTypes.descriptor(nodeType).map(NodeDescriptor::mechanics).orElse(List.of()));
    own.add(SKIPPED);
    Map<String, Object> kept = new LinkedHashMap<>();
    map.forEach(
        (key, value) -> {
          if (own.contains(String.valueOf(key))) {
            kept.put(String.valueOf(key), value);
          }
        });
    if (kept.size() == map.size()) {
      return output;
    }
    kept.put(WITHHELD, missing);
    return kept;
  }

  /**
   * The run's error: its failed node's, reduced as that node's entry is; an error that names no
   * node (the workflow terminated, say) is the service's own words and shows whole.
   */
  private String errorShown(
      Caller caller, String error, Holdings holdings, List<String> runMissing) {
    if (error == null) {
      return null;
    }
    Matcher failed = NODE_FAILED.matcher(error);
    if (!failed.matches()) {
      return error;
    }
    Set<String> nodeHeld = holdings.byNode().get(failed.group(2));
    List<String> missing = nodeHeld == null ? runMissing : missing(caller, nodeHeld);
    return missing.isEmpty() ? error : failed.group(1) + reduced(failed.group(4), missing);
  }

  /**
   * An error as a reader without the records' scopes sees it: its HTTP status when it is a peer's
   * answer, and the scopes that would show the rest; never a peer's words nor values filled in from
   * records.
   */
  static String reduced(String error, List<String> missing) {
    Matcher status = HTTP_STATUS.matcher(error);
    return (status.lookingAt() ? "HTTP " + status.group(1) + "; " : "")
        + "details withheld: they need "
        + String.join(", ", missing);
  }

  /**
   * The ids of a trigger payload (or of what a node read), with {@code withheld} where anything was
   * left out.
   */
  static Object idsOnly(Object value, List<String> missing) {
    Object kept = keep(value, true);
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

  private static Object keep(Object value, boolean top) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> kept = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            String key = String.valueOf(k);
            if (v instanceof Map<?, ?> || v instanceof List<?>) {
              Object inner = keep(v, false);
              if (!(inner instanceof Map<?, ?> m && m.isEmpty())
                  && !(inner instanceof List<?> l && l.isEmpty())) {
                kept.put(key, inner);
              }
            } else if ((isId(key) && isIdValue(v)) || (top && ENVELOPE.contains(key))) {
              kept.put(key, v);
            }
          });
      return kept;
    }
    if (value instanceof List<?> list) {
      List<Object> kept = new ArrayList<>();
      for (Object item : list) {
        if (item instanceof Map<?, ?> || item instanceof List<?>) {
          kept.add(keep(item, false));
        }
      }
      return kept;
    }
    return null; // a bare value is data
  }

  private static boolean isId(String key) {
    return key.equals("id") || key.endsWith("_id") || key.endsWith("Id");
  }

  /** An id's value: a UUID or a number. Any other value under an id's name is data. */
  private static boolean isIdValue(Object value) {
    return value instanceof Number
        || (value instanceof String s && UUID_SHAPE.matcher(s).matches());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asStringMap(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }
}
