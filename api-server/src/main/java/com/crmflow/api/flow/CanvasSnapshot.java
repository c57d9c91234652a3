package com.crmflow.api.flow;

import com.crmflow.workflow.canvas.Canvas;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * One immutable version of a sequence's canvas: its nodes, edges, the flow's settings and its goal
 * (null: none, {@link FlowGoals}). Version 0 is the empty canvas.
 */
public record CanvasSnapshot(
    int version,
    List<StoredNode> nodes,
    List<StoredEdge> edges,
    FlowSettings settings,
    OffsetDateTime createdAt,
    @Schema(
            description =
                "the flow's goal, a condition on the run's contact: {field, operator, value}",
            nullable = true)
        Map<String, Object> goal) {

  /** Unmodifiable: a stored version is shared (see the cache in {@link CanvasRepository}). */
  public CanvasSnapshot {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
    settings = settings == null ? FlowSettings.DEFAULTS : settings;
  }

  /** A version without a goal. */
  public CanvasSnapshot(
      int version,
      List<StoredNode> nodes,
      List<StoredEdge> edges,
      FlowSettings settings,
      OffsetDateTime createdAt) {
    this(version, nodes, edges, settings, createdAt, null);
  }

  public static CanvasSnapshot empty() {
    return new CanvasSnapshot(0, List.of(), List.of(), FlowSettings.DEFAULTS, null);
  }

  public Canvas toCanvas() {
    return new Canvas(
        nodes.stream().map(StoredNode::toCanvasNode).toList(),
        edges.stream().map(StoredEdge::toCanvasEdge).toList(),
        goal);
  }
}
