package com.crmflow.api.flow;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import java.time.OffsetDateTime;

/** A node as stored in a canvas version and shown by the API (with sequence_id added). */
public record StoredNode(
    String id,
    String type,
    Position position,
    NodeData data,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt) {

  public CanvasNode toCanvasNode() {
    return new CanvasNode(id, type, position, data);
  }
}
