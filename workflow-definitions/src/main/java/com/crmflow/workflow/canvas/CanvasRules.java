package com.crmflow.workflow.canvas;

import com.crmflow.workflow.event.EventNames;
import com.crmflow.workflow.template.TemplateReference;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Validation of a canvas in two tiers, so that a flow can be built node by node:
 *
 * <ul>
 *   <li>{@link #structural}: checked on every write; a canvas that breaks one of these is never
 *       stored (unknown node type, config values of the wrong type or outside their enum, edges to
 *       missing nodes, duplicate ids, cycles, several triggers, a trigger with incoming edges, size
 *       limits).
 *   <li>{@link #completeness}: what a half-built canvas may still lack, checked when a sequence is
 *       activated and by the validate endpoint (required config, a trigger for automations,
 *       reachability, condition branches, template variables produced by earlier nodes).
 * </ul>
 */
public final class CanvasRules {

  public static final int MAX_NODES = 200;
  public static final int MAX_EDGES = 400;
  public static final int MAX_CONFIG_BYTES = 16 * 1024;
  public static final int MAX_LABEL_LENGTH = 200;

  private static final Pattern ID = Pattern.compile("^[A-Za-z0-9_.:-]{1,100}$");
  private static final Pattern TIME = Pattern.compile("^([01][0-9]|2[0-3]):[0-5][0-9]$");
  private static final CronParser CRON =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  public static final List<String> HTTP_METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
  public static final List<String> SCHEDULE_TYPES = List.of("daily", "weekly", "monthly", "custom");
  public static final List<String> UPDATE_ENTITIES = List.of("contact", "opportunity", "account");
  public static final List<String> CREATE_ENTITIES =
      List.of("contact", "opportunity", "account", "note", "task");
  public static final List<String> TRANSFORM_TYPES = List.of("map", "filter", "merge");
  public static final List<String> CONDITION_OPERATORS =
      List.of(
          "equals",
          "not_equals",
          "contains",
          "not_contains",
          "greater_than",
          "less_than",
          "is_empty",
          "is_not_empty");
  public static final List<String> FILTER_OPERATORS = CONDITION_OPERATORS;
  private static final List<String> VALUELESS_OPERATORS = List.of("is_empty", "is_not_empty");

  /** What each config key of each node type must hold (checked whenever the key is present). */
  private static final Map<NodeType, Map<String, Kind>> CONFIG = new HashMap<>();

  private enum Kind {
    STRING,
    BOOLEAN,
    NON_NEGATIVE_NUMBER,
    TIMEOUT_SECONDS,
    DAY_OF_MONTH,
    TIME,
    TIMEZONE,
    CRON,
    DAYS_OF_WEEK,
    STRING_MAP,
    OBJECT,
    UUID,
    EVENT,
    HTTP_METHOD,
    SCHEDULE_TYPE,
    UPDATE_ENTITY,
    CREATE_ENTITY,
    TRANSFORM_TYPE,
    CONDITION_OPERATOR
  }

  static {
    CONFIG.put(
        NodeType.WEBHOOK_TRIGGER, Map.of("webhookPath", Kind.STRING, "secretToken", Kind.STRING));
    CONFIG.put(
        NodeType.SCHEDULE_TRIGGER,
        Map.of(
            "scheduleType", Kind.SCHEDULE_TYPE,
            "time", Kind.TIME,
            "timezone", Kind.TIMEZONE,
            "daysOfWeek", Kind.DAYS_OF_WEEK,
            "dayOfMonth", Kind.DAY_OF_MONTH,
            "customCron", Kind.CRON));
    CONFIG.put(
        NodeType.CRM_EVENT_TRIGGER,
        Map.of("eventType", Kind.EVENT, "filterField", Kind.STRING, "filterValue", Kind.STRING));
    CONFIG.put(
        NodeType.HTTP_REQUEST,
        Map.of(
            "method", Kind.HTTP_METHOD,
            "url", Kind.STRING,
            "headers", Kind.STRING_MAP,
            "bodyTemplate", Kind.STRING,
            "timeoutSeconds", Kind.TIMEOUT_SECONDS));
    CONFIG.put(
        NodeType.CHAT_MESSAGE, Map.of("channel", Kind.STRING, "messageTemplate", Kind.STRING));
    CONFIG.put(
        NodeType.CRM_UPDATE,
        Map.of(
            "entityType", Kind.UPDATE_ENTITY,
            "fieldMappings", Kind.OBJECT,
            "recordId", Kind.STRING));
    CONFIG.put(
        NodeType.CREATE_RECORD,
        Map.of("entityType", Kind.CREATE_ENTITY, "fieldMappings", Kind.OBJECT));
    CONFIG.put(
        NodeType.DATA_TRANSFORM,
        Map.of("transformType", Kind.TRANSFORM_TYPE, "mappings", Kind.OBJECT));
    CONFIG.put(
        NodeType.EMAIL,
        Map.of(
            "subject", Kind.STRING,
            "templateId", Kind.UUID,
            "body", Kind.STRING,
            "bodyHint", Kind.STRING,
            "to", Kind.STRING));
    CONFIG.put(
        NodeType.DELAY,
        Map.of("delayDays", Kind.NON_NEGATIVE_NUMBER, "delayHours", Kind.NON_NEGATIVE_NUMBER));
    CONFIG.put(
        NodeType.CONDITION,
        Map.of("field", Kind.STRING, "operator", Kind.CONDITION_OPERATOR, "value", Kind.STRING));
  }

  private CanvasRules() {}

  // ---------------------------------------------------------------- structural

  public static List<CanvasProblem> structural(Canvas canvas) {
    List<CanvasProblem> problems = new ArrayList<>();
    if (canvas.nodes().size() > MAX_NODES) {
      problems.add(CanvasProblem.canvas("a canvas holds at most " + MAX_NODES + " nodes"));
    }
    if (canvas.edges().size() > MAX_EDGES) {
      problems.add(CanvasProblem.canvas("a canvas holds at most " + MAX_EDGES + " edges"));
    }
    Set<String> nodeIds = new HashSet<>();
    for (CanvasNode node : canvas.nodes()) {
      checkNode(node, nodeIds, problems);
    }
    List<CanvasNode> triggers = canvas.triggers();
    if (triggers.size() > 1) {
      problems.add(
          CanvasProblem.canvas(
              "a canvas has at most one trigger node; found "
                  + triggers.stream().map(CanvasNode::id).toList()));
    }
    Set<String> edgeIds = new HashSet<>();
    Set<String> connections = new HashSet<>();
    for (CanvasEdge edge : canvas.edges()) {
      checkEdge(edge, nodeIds, edgeIds, connections, problems);
      if (edge.target() != null && NodeType.isTrigger(typeOf(canvas, edge.target()))) {
        problems.add(
            CanvasProblem.edge(
                edge.id(),
                "target",
                "a trigger node (" + edge.target() + ") has no incoming edges"));
      }
    }
    if (problems.isEmpty()) {
      List<String> cycle = cycleNodes(canvas);
      if (!cycle.isEmpty()) {
        problems.add(
            CanvasProblem.canvas("the flow must not loop; these nodes form a cycle: " + cycle));
      }
    }
    return problems;
  }

  private static void checkNode(CanvasNode node, Set<String> ids, List<CanvasProblem> problems) {
    String id = node.id();
    if (id == null || !ID.matcher(id).matches()) {
      problems.add(
          CanvasProblem.node(id, "id", "must be 1 to 100 characters of letters, digits, _ . : -"));
    } else if (!ids.add(id)) {
      problems.add(CanvasProblem.node(id, "id", "is used by more than one node"));
    }
    if (node.type() == null || NodeType.of(node.type()).isEmpty()) {
      problems.add(
          CanvasProblem.node(
              id, "type", "unknown node type '" + node.type() + "'; one of " + NodeType.names()));
      return;
    }
    if (node.position() == null) {
      problems.add(CanvasProblem.node(id, "position", "is required ({x, y})"));
    }
    if (node.data() == null) {
      problems.add(CanvasProblem.node(id, "data", "is required ({label, config})"));
      return;
    }
    if (node.data().label() != null && node.data().label().length() > MAX_LABEL_LENGTH) {
      problems.add(
          CanvasProblem.node(
              id, "data.label", "must be at most " + MAX_LABEL_LENGTH + " characters"));
    }
    Map<String, Object> config = node.data().config() == null ? Map.of() : node.data().config();
    NodeType type = NodeType.of(node.type()).orElseThrow();
    Map<String, Kind> kinds = CONFIG.getOrDefault(type, Map.of());
    for (var entry : config.entrySet()) {
      Kind kind = kinds.get(entry.getKey());
      if (entry.getKey().equals("continueOnFailure") && !type.isTrigger()) {
        kind = Kind.BOOLEAN;
      }
      if (kind == null || entry.getValue() == null) {
        continue; // keys we do not interpret (e.g. editor hints) are kept as they are
      }
      String problem = check(kind, entry.getValue());
      if (problem != null) {
        problems.add(CanvasProblem.node(id, "data.config." + entry.getKey(), problem));
      }
    }
  }

  private static void checkEdge(
      CanvasEdge edge,
      Set<String> nodeIds,
      Set<String> edgeIds,
      Set<String> connections,
      List<CanvasProblem> problems) {
    String id = edge.id();
    if (id == null || !ID.matcher(id).matches()) {
      problems.add(
          CanvasProblem.edge(id, "id", "must be 1 to 100 characters of letters, digits, _ . : -"));
    } else if (!edgeIds.add(id)) {
      problems.add(CanvasProblem.edge(id, "id", "is used by more than one edge"));
    }
    if (edge.source() == null || !nodeIds.contains(edge.source())) {
      problems.add(CanvasProblem.edge(id, "source", "no node with id '" + edge.source() + "'"));
    }
    if (edge.target() == null || !nodeIds.contains(edge.target())) {
      problems.add(CanvasProblem.edge(id, "target", "no node with id '" + edge.target() + "'"));
    }
    if (edge.source() != null && edge.source().equals(edge.target())) {
      problems.add(CanvasProblem.edge(id, "target", "an edge cannot connect a node to itself"));
    }
    if (edge.type() != null
        && !edge.type().equals(CanvasEdge.DEFAULT)
        && !edge.type().equals(CanvasEdge.CONDITIONAL)) {
      problems.add(CanvasProblem.edge(id, "type", "must be default or conditional"));
    }
    if (edge.label() != null && edge.label().length() > 100) {
      problems.add(CanvasProblem.edge(id, "label", "must be at most 100 characters"));
    }
    if (!connections.add(edge.source() + "->" + edge.target() + "#" + edge.label())) {
      problems.add(
          CanvasProblem.edge(
              id, null, "duplicates another edge from " + edge.source() + " to " + edge.target()));
    }
  }

  private static String check(Kind kind, Object value) {
    return switch (kind) {
      case STRING -> value instanceof String ? null : "must be a string";
      case BOOLEAN -> value instanceof Boolean ? null : "must be true or false";
      case NON_NEGATIVE_NUMBER ->
          value instanceof Number n && n.doubleValue() >= 0 && n.doubleValue() <= 3650
              ? null
              : "must be a number from 0 to 3650";
      case TIMEOUT_SECONDS ->
          value instanceof Number n && n.doubleValue() >= 1 && n.doubleValue() <= 60
              ? null
              : "must be a number of seconds from 1 to 60";
      case DAY_OF_MONTH ->
          isInteger(value) && ((Number) value).intValue() >= 1 && ((Number) value).intValue() <= 31
              ? null
              : "must be a day of the month from 1 to 31";
      case TIME ->
          value instanceof String s && TIME.matcher(s).matches()
              ? null
              : "must be a time HH:mm (24-hour)";
      case TIMEZONE -> isZone(value) ? null : "must be an IANA time zone such as Europe/Berlin";
      case CRON -> cronProblem(value);
      case DAYS_OF_WEEK -> daysOfWeekProblem(value);
      case STRING_MAP ->
          value instanceof Map<?, ?> map && map.values().stream().allMatch(v -> v instanceof String)
              ? null
              : "must be an object whose values are strings";
      case OBJECT -> value instanceof Map<?, ?> ? null : "must be an object";
      case UUID -> isUuid(value) ? null : "must be a UUID";
      case EVENT -> oneOf(value, EventNames.ALL);
      case HTTP_METHOD -> oneOf(value, HTTP_METHODS);
      case SCHEDULE_TYPE -> oneOf(value, SCHEDULE_TYPES);
      case UPDATE_ENTITY -> oneOf(value, UPDATE_ENTITIES);
      case CREATE_ENTITY -> oneOf(value, CREATE_ENTITIES);
      case TRANSFORM_TYPE -> oneOf(value, TRANSFORM_TYPES);
      case CONDITION_OPERATOR -> oneOf(value, CONDITION_OPERATORS);
    };
  }

  private static String oneOf(Object value, List<String> allowed) {
    return value instanceof String s && allowed.contains(s) ? null : "must be one of " + allowed;
  }

  private static boolean isInteger(Object value) {
    return value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue());
  }

  private static boolean isZone(Object value) {
    if (!(value instanceof String s) || !(s.contains("/") || s.equals("UTC"))) {
      return false;
    }
    try {
      ZoneId.of(s);
      return true;
    } catch (DateTimeException e) {
      return false;
    }
  }

  private static boolean isUuid(Object value) {
    if (!(value instanceof String s)) {
      return false;
    }
    try {
      UUID.fromString(s);
      return s.length() == 36;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String cronProblem(Object value) {
    if (!(value instanceof String s) || s.trim().split("\\s+").length != 5) {
      return "must be a 5-field cron expression (minute hour day-of-month month day-of-week)";
    }
    try {
      CRON.parse(s.trim()).validate();
      return null;
    } catch (IllegalArgumentException e) {
      return "is not a valid cron expression: " + e.getMessage();
    }
  }

  private static String daysOfWeekProblem(Object value) {
    if (!(value instanceof List<?> days)) {
      return "must be an array of days, 0 (Sunday) to 6 (Saturday)";
    }
    Set<Integer> seen = new HashSet<>();
    for (Object day : days) {
      if (!isInteger(day) || ((Number) day).intValue() < 0 || ((Number) day).intValue() > 6) {
        return "must hold days 0 (Sunday) to 6 (Saturday); found " + day;
      }
      if (!seen.add(((Number) day).intValue())) {
        return "lists day " + day + " twice";
      }
    }
    return null;
  }

  private static String typeOf(Canvas canvas, String nodeId) {
    return canvas.node(nodeId).map(CanvasNode::type).orElse(null);
  }

  /** Nodes left over by Kahn's algorithm: those on (or after) a cycle; empty for a DAG. */
  private static List<String> cycleNodes(Canvas canvas) {
    Map<String, Integer> inDegree = new LinkedHashMap<>();
    canvas.nodes().forEach(n -> inDegree.put(n.id(), 0));
    canvas.edges().forEach(e -> inDegree.merge(e.target(), 1, Integer::sum));
    Deque<String> ready = new ArrayDeque<>();
    inDegree.forEach(
        (id, degree) -> {
          if (degree == 0) {
            ready.add(id);
          }
        });
    while (!ready.isEmpty()) {
      String id = ready.poll();
      inDegree.remove(id);
      for (CanvasEdge edge : canvas.outgoing(id)) {
        if (inDegree.merge(edge.target(), -1, Integer::sum) == 0) {
          ready.add(edge.target());
        }
      }
    }
    return List.copyOf(inDegree.keySet());
  }

  // ---------------------------------------------------------------- completeness

  /**
   * What keeps a structurally valid canvas from running. Assumes {@link #structural} found nothing.
   *
   * @param automation whether the flow is an automation (needs exactly one trigger)
   */
  public static List<CanvasProblem> completeness(Canvas canvas, boolean automation) {
    List<CanvasProblem> problems = new ArrayList<>();
    if (canvas.nodes().isEmpty()) {
      problems.add(CanvasProblem.canvas("the canvas has no nodes"));
      return problems;
    }
    for (CanvasNode node : canvas.nodes()) {
      requiredConfig(node, problems);
    }
    List<CanvasNode> triggers = canvas.triggers();
    List<String> starts;
    if (automation && triggers.isEmpty()) {
      problems.add(CanvasProblem.canvas("an automation needs exactly one trigger node"));
      starts = roots(canvas);
    } else if (!triggers.isEmpty()) {
      starts = List.of(triggers.get(0).id());
    } else {
      starts = roots(canvas);
      if (starts.size() > 1) {
        problems.add(
            CanvasProblem.canvas(
                "a sequence has one first step; these nodes all start it: " + starts));
      }
    }
    Set<String> reachable =
        reachableFrom(canvas, starts.isEmpty() ? List.of() : List.of(starts.get(0)));
    for (CanvasNode node : canvas.nodes()) {
      if (!reachable.contains(node.id())) {
        problems.add(
            CanvasProblem.node(
                node.id(),
                null,
                "is not reachable from " + (starts.isEmpty() ? "the start" : starts.get(0))));
      }
    }
    for (CanvasNode node : canvas.nodes()) {
      if (NodeType.CONDITION.value().equals(node.type())) {
        conditionBranches(canvas, node, problems);
      }
    }
    templateVariables(canvas, problems);
    return problems;
  }

  private static void requiredConfig(CanvasNode node, List<CanvasProblem> problems) {
    NodeType type = NodeType.of(node.type()).orElseThrow();
    String id = node.id();
    switch (type) {
      case SCHEDULE_TRIGGER -> {
        require(node, problems, "scheduleType", "time", "timezone");
        if ("weekly".equals(node.config("scheduleType"))
            && (!(node.config("daysOfWeek") instanceof List<?> days) || days.isEmpty())) {
          problems.add(
              CanvasProblem.node(
                  id, "data.config.daysOfWeek", "is required for a weekly schedule"));
        }
        if ("custom".equals(node.config("scheduleType")) && node.config("customCron") == null) {
          problems.add(
              CanvasProblem.node(
                  id, "data.config.customCron", "is required for a custom schedule"));
        }
      }
      case CRM_EVENT_TRIGGER -> {
        require(node, problems, "eventType");
        if ((node.config("filterField") == null) != (node.config("filterValue") == null)) {
          problems.add(
              CanvasProblem.node(
                  id, "data.config.filterValue", "filterField and filterValue go together"));
        }
      }
      case HTTP_REQUEST -> require(node, problems, "method", "url");
      case CHAT_MESSAGE -> require(node, problems, "channel", "messageTemplate");
      case CRM_UPDATE, CREATE_RECORD -> {
        require(node, problems, "entityType", "fieldMappings");
        if (node.config("fieldMappings") instanceof Map<?, ?> m && m.isEmpty()) {
          problems.add(CanvasProblem.node(id, "data.config.fieldMappings", "maps no field"));
        }
      }
      case DATA_TRANSFORM -> {
        require(node, problems, "transformType", "mappings");
        transformMappings(node, problems);
      }
      case EMAIL -> {
        if (node.config("templateId") == null && isBlank(node.config("subject"))) {
          problems.add(
              CanvasProblem.node(
                  id, "data.config.subject", "an email needs templateId or subject"));
        }
      }
      case DELAY -> {
        double days = number(node.config("delayDays"));
        double hours = number(node.config("delayHours"));
        if (days + hours <= 0) {
          problems.add(
              CanvasProblem.node(
                  id, "data.config.delayDays", "a delay needs delayDays or delayHours above 0"));
        }
      }
      case CONDITION -> {
        require(node, problems, "field", "operator");
        // a missing operator is reported by require (List.contains(null) would throw)
        Object operator = node.config("operator");
        if (operator != null
            && !VALUELESS_OPERATORS.contains(operator)
            && node.config("value") == null) {
          problems.add(
              CanvasProblem.node(
                  id, "data.config.value", "is required for operator " + node.config("operator")));
        }
      }
      case WEBHOOK_TRIGGER -> {
        // webhookPath is assigned by the server; secretToken is optional
      }
    }
  }

  /**
   * data_transform mappings: map {@code {outputKey: "template"}}; filter {@code {source: "path",
   * field, operator, value}}; merge {@code {sources: ["path", ...]}} (paths such as trigger or
   * http_request_1.body).
   */
  private static void transformMappings(CanvasNode node, List<CanvasProblem> problems) {
    if (!(node.config("mappings") instanceof Map<?, ?> mappings)) {
      return;
    }
    String field = "data.config.mappings";
    switch (String.valueOf(node.config("transformType"))) {
      case "map" -> {
        if (mappings.isEmpty() || !mappings.values().stream().allMatch(v -> v instanceof String)) {
          problems.add(
              CanvasProblem.node(node.id(), field, "map needs {outputKey: \"template\", ...}"));
        }
      }
      case "filter" -> {
        if (!(mappings.get("source") instanceof String)
            || !(mappings.get("field") instanceof String)
            || !(mappings.get("operator") instanceof String operator)
            || !FILTER_OPERATORS.contains(operator)) {
          problems.add(
              CanvasProblem.node(
                  node.id(), field, "filter needs {source, field, operator, value}"));
        }
      }
      case "merge" -> {
        if (!(mappings.get("sources") instanceof List<?> sources)
            || sources.isEmpty()
            || !sources.stream().allMatch(s -> s instanceof String)) {
          problems.add(
              CanvasProblem.node(node.id(), field, "merge needs {sources: [\"path\", ...]}"));
        }
      }
      default -> {
        // an unknown transformType is reported by the structural tier
      }
    }
  }

  private static void conditionBranches(
      Canvas canvas, CanvasNode node, List<CanvasProblem> problems) {
    Set<String> labels = new HashSet<>();
    for (CanvasEdge edge : canvas.outgoing(node.id())) {
      if (!"true".equals(edge.label()) && !"false".equals(edge.label())) {
        problems.add(
            CanvasProblem.edge(
                edge.id(), "label", "an edge leaving a condition is labelled true or false"));
      } else if (!labels.add(edge.label())) {
        problems.add(
            CanvasProblem.edge(
                edge.id(),
                "label",
                "condition " + node.id() + " has two '" + edge.label() + "' edges"));
      }
    }
    if (labels.isEmpty()) {
      problems.add(
          CanvasProblem.node(node.id(), null, "a condition needs a true or a false branch"));
    }
  }

  /** Every {{type_n.x}} must name an output that some earlier node (an ancestor) produces. */
  private static void templateVariables(Canvas canvas, List<CanvasProblem> problems) {
    for (CanvasNode node : canvas.nodes()) {
      Map<String, Integer> before = new HashMap<>();
      for (String ancestor : ancestors(canvas, node.id())) {
        canvas.node(ancestor).ifPresent(a -> before.merge(a.type(), 1, Integer::sum));
      }
      Map<String, Object> config =
          node.data() == null || node.data().config() == null ? Map.of() : node.data().config();
      for (var entry : config.entrySet()) {
        for (String text : strings(entry.getValue())) {
          for (TemplateReference ref : TemplateReference.in(text)) {
            String problem = referenceProblem(ref, before);
            if (problem != null) {
              problems.add(CanvasProblem.node(node.id(), "data.config." + entry.getKey(), problem));
            }
          }
        }
      }
    }
  }

  private static String referenceProblem(TemplateReference ref, Map<String, Integer> before) {
    if (ref.source().equals("trigger") || ref.source().equals("contact")) {
      return null;
    }
    String type = ref.nodeType();
    if (type == null || NodeType.of(type).isEmpty() || NodeType.isTrigger(type)) {
      return ref.token() + " names no source: use trigger, contact or <node_type>_<n>";
    }
    int available = before.getOrDefault(type, 0);
    if (ref.ordinal() > available) {
      return ref.token()
          + " needs "
          + ref.ordinal()
          + " "
          + type
          + " node(s) before this one; "
          + available
          + " precede it";
    }
    return null;
  }

  /**
   * The variables the canvas's nodes can read: each {@code {{source...}}} of a template, and the
   * first name of every other text in a node's config, since data_transform names its sources as
   * plain paths ({@code http_request_1.body.items}). More than are read, never fewer.
   */
  public static Set<String> variablesRead(Canvas canvas) {
    Set<String> read = new HashSet<>();
    for (CanvasNode node : canvas.nodes()) {
      if (node.data() == null || node.data().config() == null) {
        continue;
      }
      for (String text : strings(node.data().config())) {
        TemplateReference.in(text).forEach(reference -> read.add(reference.source()));
        read.add(text.strip().split("\\.", 2)[0]);
      }
    }
    return read;
  }

  private static List<String> strings(Object value) {
    List<String> out = new ArrayList<>();
    if (value instanceof String s) {
      out.add(s);
    } else if (value instanceof Map<?, ?> map) {
      map.values().forEach(v -> out.addAll(strings(v)));
    } else if (value instanceof Collection<?> list) {
      list.forEach(v -> out.addAll(strings(v)));
    }
    return out;
  }

  private static void require(CanvasNode node, List<CanvasProblem> problems, String... keys) {
    for (String key : keys) {
      Object value = node.config(key);
      if (value == null || (value instanceof String s && s.isBlank())) {
        problems.add(CanvasProblem.node(node.id(), "data.config." + key, "is required"));
      }
    }
  }

  private static boolean isBlank(Object value) {
    return value == null || (value instanceof String s && s.isBlank());
  }

  private static double number(Object value) {
    return value instanceof Number n ? n.doubleValue() : 0;
  }

  /** Nodes without incoming edges, in canvas order. */
  public static List<String> roots(Canvas canvas) {
    Set<String> targets = new HashSet<>();
    canvas.edges().forEach(e -> targets.add(e.target()));
    return canvas.nodes().stream().map(CanvasNode::id).filter(id -> !targets.contains(id)).toList();
  }

  public static Set<String> reachableFrom(Canvas canvas, List<String> starts) {
    Set<String> seen = new LinkedHashSet<>(starts);
    Deque<String> todo = new ArrayDeque<>(starts);
    while (!todo.isEmpty()) {
      for (CanvasEdge edge : canvas.outgoing(todo.poll())) {
        if (seen.add(edge.target())) {
          todo.add(edge.target());
        }
      }
    }
    return seen;
  }

  /** Every node from which {@code nodeId} can be reached (not the node itself). */
  public static Set<String> ancestors(Canvas canvas, String nodeId) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of(nodeId));
    while (!todo.isEmpty()) {
      for (CanvasEdge edge : canvas.incoming(todo.poll())) {
        if (seen.add(edge.source())) {
          todo.add(edge.source());
        }
      }
    }
    seen.remove(nodeId);
    return seen;
  }
}
