package com.crmflow.workflow.canvas;

/**
 * A connection between two nodes. {@code type} is default or conditional; the edges leaving a
 * condition node are conditional and labelled {@code true} or {@code false}.
 */
public record CanvasEdge(String id, String source, String target, String type, String label) {

  public static final String DEFAULT = "default";
  public static final String CONDITIONAL = "conditional";
}
