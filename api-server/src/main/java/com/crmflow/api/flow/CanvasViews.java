package com.crmflow.api.flow;

import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeSecrets;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The spec's node and edge shapes: stored fields plus sequence_id. */
public final class CanvasViews {

  private CanvasViews() {}

  public record NodeView(
      String id,
      UUID sequenceId,
      String type,
      Position position,
      NodeData data,
      OffsetDateTime createdAt,
      OffsetDateTime updatedAt) {}

  public record EdgeView(
      String id,
      UUID sequenceId,
      String source,
      String target,
      String type,
      String label,
      OffsetDateTime createdAt) {}

  /**
   * Secrets are write-only: they show as {@link NodeSecrets#MASK}, as the node types of {@code
   * types} mark them.
   */
  static NodeView node(NodeCatalog types, UUID sequenceId, StoredNode n) {
    NodeData data =
        n.data() == null
            ? null
            : new NodeData(
                n.data().label(), NodeSecrets.masked(types, n.type(), n.data().config()));
    return new NodeView(
        n.id(), sequenceId, n.type(), n.position(), data, n.createdAt(), n.updatedAt());
  }

  static EdgeView edge(UUID sequenceId, StoredEdge e) {
    return new EdgeView(
        e.id(), sequenceId, e.source(), e.target(), e.type(), e.label(), e.createdAt());
  }

  static List<NodeView> nodes(NodeCatalog types, UUID sequenceId, CanvasSnapshot snapshot) {
    return snapshot.nodes().stream().map(n -> node(types, sequenceId, n)).toList();
  }

  static List<EdgeView> edges(UUID sequenceId, CanvasSnapshot snapshot) {
    return snapshot.edges().stream().map(e -> edge(sequenceId, e)).toList();
  }

  /** A version of a canvas: its nodes, edges and the flow's settings. */
  public record CanvasView(
      UUID sequenceId,
      int version,
      List<NodeView> nodes,
      List<EdgeView> edges,
      FlowSettings settings,
      @Schema(
              description =
                  "the flow's goal, {field, operator, value}: a condition on the run's contact",
              nullable = true)
          Map<String, Object> goal) {}

  static CanvasView canvas(NodeCatalog types, UUID sequenceId, CanvasSnapshot snapshot) {
    return new CanvasView(
        sequenceId,
        snapshot.version(),
        nodes(types, sequenceId, snapshot),
        edges(sequenceId, snapshot),
        snapshot.settings(),
        snapshot.goal());
  }
}
