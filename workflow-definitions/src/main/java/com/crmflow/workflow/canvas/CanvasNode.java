package com.crmflow.workflow.canvas;

/** One step (or trigger) of a flow. */
public record CanvasNode(String id, String type, Position position, NodeData data) {

  public Object config(String key) {
    return data == null || data.config() == null ? null : data.config().get(key);
  }

  public String label() {
    return data == null ? null : data.label();
  }
}
