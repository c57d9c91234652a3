package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * condition: compares a rendered field with a value, in workflow code; the run goes on along the
 * edges labelled with the result ({@code true} or {@code false}).
 */
final class ConditionNode implements NodeExecutor {

  static final List<String> OPERATORS =
      List.of(
          "equals",
          "not_equals",
          "contains",
          "not_contains",
          "greater_than",
          "less_than",
          "is_empty",
          "is_not_empty");

  private static final List<String> VALUELESS_OPERATORS = List.of("is_empty", "is_not_empty");

  @Override
  public NodeType type() {
    return NodeType.CONDITION;
  }

  @Override
  public Map<String, ConfigCheck> configFields() {
    return Map.of(
        "field", ConfigCheck.STRING,
        "operator", ConfigCheck.oneOf(OPERATORS),
        "value", ConfigCheck.STRING);
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    NodeConfig.require(node, problems, "field", "operator");
    // a missing operator is reported by require (List.contains(null) would throw)
    Object operator = node.config("operator");
    if (operator != null
        && !VALUELESS_OPERATORS.contains(operator)
        && node.config("value") == null) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.value", "is required for operator " + operator));
    }
    Set<String> labels = new HashSet<>();
    for (CanvasEdge edge : canvas.outgoing(node.id())) {
      if (!"true".equals(edge.label()) && !"false".equals(edge.label())) {
        problems.add(
            CanvasProblem.edge(
                edge.id(), "label", "an edge leaving a condition is labelled true or false"));
      } else if (!labels.add(edge.label())) {
        problems.add(
            CanvasProblem.edge(
                edge.id(),
                "label",
                "condition " + node.id() + " has two '" + edge.label() + "' edges"));
      }
    }
    if (labels.isEmpty()) {
      problems.add(
          CanvasProblem.node(node.id(), null, "a condition needs a true or a false branch"));
    }
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    return NodeEvaluation.condition(node, run.scope());
  }

  @Override
  public boolean waits() {
    return false;
  }

  /** The edges of the result's branch (and unlabelled ones). */
  @Override
  public Predicate<CanvasEdge> edgesTaken(Map<String, Object> output) {
    String branch = String.valueOf(output.get("result"));
    return edge -> edge.label() == null || edge.label().equals(branch);
  }
}
