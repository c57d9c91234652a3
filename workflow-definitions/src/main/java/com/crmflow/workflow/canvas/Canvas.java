package com.crmflow.workflow.canvas;

import java.util.List;
import java.util.Optional;

/**
 * An immutable snapshot of a flow: the unit that is versioned, validated and executed. It knows its
 * nodes' type names only; which of them start the flow is their types' descriptors' to say (a
 * {@code NodeCatalog}'s {@code triggers(canvas)}).
 */
public record Canvas(List<CanvasNode> nodes, List<CanvasEdge> edges) {

  public Canvas {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
  }

  public static Canvas empty() {
    return new Canvas(List.of(), List.of());
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
