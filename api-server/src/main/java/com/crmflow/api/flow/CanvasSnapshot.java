package com.crmflow.api.flow;

import com.crmflow.workflow.canvas.Canvas;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * One immutable version of a sequence's canvas: its nodes, edges and the flow's settings. Version 0
 * is the empty canvas.
 */
public record CanvasSnapshot(
    int version,
    List<StoredNode> nodes,
    List<StoredEdge> edges,
    FlowSettings settings,
    OffsetDateTime createdAt) {

  /** Unmodifiable: a stored version is shared (see the cache in {@link CanvasRepository}). */
  public CanvasSnapshot {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
    settings = settings == null ? FlowSettings.DEFAULTS : settings;
  }

  public static CanvasSnapshot empty() {
    return new CanvasSnapshot(0, List.of(), List.of(), FlowSettings.DEFAULTS, null);
  }

  public Canvas toCanvas() {
    return new Canvas(
        nodes.stream().map(StoredNode::toCanvasNode).toList(),
        edges.stream().map(StoredEdge::toCanvasEdge).toList());
  }
}
