package com.crmflow.workflow.canvas;

/**
 * One thing wrong with a canvas.
 *
 * @param nodeId the node it concerns, or null
 * @param edgeId the edge it concerns, or null
 * @param field the field within the node or edge (e.g. {@code data.config.url}), or null
 */
public record CanvasProblem(String nodeId, String edgeId, String field, String message) {

  public static CanvasProblem node(String nodeId, String field, String message) {
    return new CanvasProblem(nodeId, null, field, message);
  }

  public static CanvasProblem edge(String edgeId, String field, String message) {
    return new CanvasProblem(null, edgeId, field, message);
  }

  public static CanvasProblem canvas(String message) {
    return new CanvasProblem(null, null, null, message);
  }

  /** "node n1, data.config.url: is required" */
  public String describe() {
    StringBuilder out = new StringBuilder();
    if (nodeId != null) {
      out.append("node ").append(nodeId);
    } else if (edgeId != null) {
      out.append("edge ").append(edgeId);
    }
    if (field != null) {
      out.append(out.isEmpty() ? "" : ", ").append(field);
    }
    return (out.isEmpty() ? "" : out + ": ") + message;
  }
}
