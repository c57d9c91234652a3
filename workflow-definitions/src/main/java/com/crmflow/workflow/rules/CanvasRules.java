package com.crmflow.workflow.rules;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigCheck;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.builtin.BuiltInNodes;
import com.crmflow.workflow.template.TemplateReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validation of a canvas in two tiers, so that a flow can be built node by node. The graph rules
 * are here; what each node type's config must hold is its executor's ({@link NodeExecutor}: the
 * fields of its descriptor and its own completeness check), looked up in a {@link NodeCatalog} (the
 * built-in types unless one is given).
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

  private CanvasRules() {}

  /** Whether the text can be the id of a node or an edge. */
  public static boolean isId(String text) {
    return text != null && ID.matcher(text).matches();
  }

  // ---------------------------------------------------------------- structural

  public static List<CanvasProblem> structural(Canvas canvas) {
    return structural(canvas, BuiltInNodes.catalog());
  }

  public static List<CanvasProblem> structural(Canvas canvas, NodeCatalog catalog) {
    List<CanvasProblem> problems = new ArrayList<>();
    if (canvas.nodes().size() > MAX_NODES) {
      problems.add(CanvasProblem.canvas("a canvas holds at most " + MAX_NODES + " nodes"));
    }
    if (canvas.edges().size() > MAX_EDGES) {
      problems.add(CanvasProblem.canvas("a canvas holds at most " + MAX_EDGES + " edges"));
    }
    Set<String> nodeIds = new HashSet<>();
    for (CanvasNode node : canvas.nodes()) {
      checkNode(node, nodeIds, problems, catalog);
    }
    List<CanvasNode> triggers = catalog.triggers(canvas);
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
      if (edge.target() != null && catalog.isTrigger(typeOf(canvas, edge.target()))) {
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

  private static void checkNode(
      CanvasNode node, Set<String> ids, List<CanvasProblem> problems, NodeCatalog catalog) {
    String id = node.id();
    if (id == null || !ID.matcher(id).matches()) {
      problems.add(
          CanvasProblem.node(id, "id", "must be 1 to 100 characters of letters, digits, _ . : -"));
    } else if (!ids.add(id)) {
      problems.add(CanvasProblem.node(id, "id", "is used by more than one node"));
    }
    NodeExecutor executor = catalog.find(node.type()).orElse(null);
    if (executor == null) {
      problems.add(
          CanvasProblem.node(
              id, "type", "unknown node type '" + node.type() + "'; one of " + catalog.names()));
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
    NodeType type = executor.type();
    Map<String, ConfigCheck> checks = executor.configFields();
    for (var entry : config.entrySet()) {
      ConfigCheck check = checks.get(entry.getKey());
      if (entry.getKey().equals("continueOnFailure") && !type.isTrigger()) {
        check = ConfigCheck.BOOLEAN;
      }
      if (check == null || entry.getValue() == null) {
        continue; // keys we do not interpret (e.g. editor hints) are kept as they are
      }
      String problem = check.problem(entry.getValue());
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
    return completeness(canvas, automation, BuiltInNodes.catalog());
  }

  /**
   * What keeps a structurally valid canvas from running, with the node types of this catalog: each
   * node's required fields, its type's own completeness check, and the graph's rules.
   */
  public static List<CanvasProblem> completeness(
      Canvas canvas, boolean automation, NodeCatalog catalog) {
    List<CanvasProblem> problems = new ArrayList<>();
    if (canvas.nodes().isEmpty()) {
      problems.add(CanvasProblem.canvas("the canvas has no nodes"));
      return problems;
    }
    for (CanvasNode node : canvas.nodes()) {
      catalog
          .find(node.type())
          .ifPresent(
              executor -> {
                requiredFields(node, executor.descriptor(), problems);
                executor.checkComplete(node, canvas, problems);
              });
    }
    List<CanvasNode> triggers = catalog.triggers(canvas);
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
    templateVariables(canvas, problems, catalog);
    return problems;
  }

  /** Each required field of the node's type must be present and not blank. */
  private static void requiredFields(
      CanvasNode node, NodeDescriptor descriptor, List<CanvasProblem> problems) {
    for (ConfigField field : descriptor.fields()) {
      Object value = node.config(field.key());
      if (field.required() && (value == null || (value instanceof String s && s.isBlank()))) {
        problems.add(CanvasProblem.node(node.id(), "data.config." + field.key(), "is required"));
      }
    }
  }

  /** Every {{type_n.x}} must name an output that some earlier node (an ancestor) produces. */
  private static void templateVariables(
      Canvas canvas, List<CanvasProblem> problems, NodeCatalog catalog) {
    for (CanvasNode node : canvas.nodes()) {
      Map<String, Integer> before = new HashMap<>();
      for (String ancestor : ancestors(canvas, node.id())) {
        canvas.node(ancestor).ifPresent(a -> before.merge(a.type(), 1, Integer::sum));
      }
      Map<String, Object> config =
          node.data() == null || node.data().config() == null ? Map.of() : node.data().config();
      for (var entry : config.entrySet()) {
        for (String text : FlowAccess.strings(entry.getValue())) {
          for (TemplateReference ref : TemplateReference.in(text)) {
            String problem = referenceProblem(ref, before, catalog);
            if (problem != null) {
              problems.add(CanvasProblem.node(node.id(), "data.config." + entry.getKey(), problem));
            }
          }
        }
      }
    }
  }

  private static String referenceProblem(
      TemplateReference ref, Map<String, Integer> before, NodeCatalog catalog) {
    if (ref.source().equals("trigger") || ref.source().equals("contact")) {
      return null;
    }
    String type = ref.nodeType();
    if (type == null || catalog.find(type).isEmpty() || catalog.isTrigger(type)) {
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
   * paths data_transform looks up ({@code http_request_1.body.items}); see {@link FlowAccess}.
   */
  public static Set<String> variablesRead(Canvas canvas) {
    return FlowAccess.of(canvas, BuiltInNodes.catalog()).variablesRead();
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
