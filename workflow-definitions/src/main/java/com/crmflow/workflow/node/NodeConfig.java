package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import java.util.List;

/** Reading a node's config, shared by the node types. */
public final class NodeConfig {

  private NodeConfig() {}

  /** The value of a string key, or null when it is missing or blank. */
  public static String string(CanvasNode node, String key) {
    return node.config(key) instanceof String s && !s.isBlank() ? s : null;
  }

  public static double number(Object value) {
    return value instanceof Number n ? n.doubleValue() : 0;
  }

  public static boolean isBlank(Object value) {
    return value == null || (value instanceof String s && s.isBlank());
  }

  /** Each of the keys must be present and not blank. */
  public static void require(CanvasNode node, List<CanvasProblem> problems, String... keys) {
    for (String key : keys) {
      if (isBlank(node.config(key))) {
        problems.add(CanvasProblem.node(node.id(), "data.config." + key, "is required"));
      }
    }
  }

  /** The node's label, or its id when it has none: how the Temporal UI names its activities. */
  public static String label(CanvasNode node) {
    String label = node.label();
    return label == null || label.isBlank() ? node.id() : label;
  }
}
