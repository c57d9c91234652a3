package com.crmflow.api.flow;

import com.crmflow.workflow.canvas.CanvasEdge;
import java.time.OffsetDateTime;

/** An edge as stored in a canvas version and shown by the API (with sequence_id added). */
public record StoredEdge(
    String id, String source, String target, String type, String label, OffsetDateTime createdAt) {

  public CanvasEdge toCanvasEdge() {
    return new CanvasEdge(id, source, target, type, label);
  }
}
