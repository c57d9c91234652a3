package com.crmflow.workflow.canvas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable snapshot of a flow: the unit that is versioned, validated and executed. It knows its
 * nodes' type names only; which of them start the flow is their types' descriptors' to say (a
 * {@code NodeCatalog}'s {@code triggers(canvas)}).
 *
 * @param goal the flow's goal, or null: a condition on the run's contact in the shape of a
 *     condition node's config ({@code field}, {@code operator}, {@code value}); a run whose contact
 *     meets it ends, completed. Left out of the JSON when null, so a canvas without a goal reads as
 *     it always did in a run's input.
 */
public record Canvas(
    List<CanvasNode> nodes,
    List<CanvasEdge> edges,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> goal) {

  public Canvas {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
    // a valueless operator's goal may hold a null value, which Map.copyOf refuses
    goal =
        goal == null || goal.isEmpty()
            ? null
            : Collections.unmodifiableMap(new LinkedHashMap<>(goal));
  }

  /** A canvas without a goal. */
  public Canvas(List<CanvasNode> nodes, List<CanvasEdge> edges) {
    this(nodes, edges, null);
  }

  public static Canvas empty() {
    return new Canvas(List.of(), List.of());
  }

  /** The same nodes and edges with this goal (null: none). */
  public Canvas withGoal(Map<String, Object> other) {
    return new Canvas(nodes, edges, other);
  }

  public Optional<CanvasNode> node(String id) {
    return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
  }

  public List<CanvasEdge> outgoing(String nodeId) {
    return edges.stream().filter(e -> e.source().equals(nodeId)).toList();
  }

  public List<CanvasEdge> incoming(String nodeId) {
    return edges.stream().filter(e -> e.target().equals(nodeId)).toList();
  }
}
