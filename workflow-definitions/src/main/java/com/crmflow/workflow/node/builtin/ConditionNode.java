package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.Comparisons;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * condition: compares a rendered field with a value, in workflow code; the run goes on along the
 * edges labelled with the result ({@code true} or {@code false}).
 */
final class ConditionNode implements NodeExecutor {

  @Override
  public NodeType type() {
    return NodeType.CONDITION;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.CONDITION,
            "Condition",
            NodeDescriptor.LOGIC,
            "split",
            "branches on a comparison",
            List.of(
                ConfigField.template("field", "Field")
                    .asRequired()
                    .help("a template such as {{trigger.plan}} or {{contact.lead_status}}"),
                ConfigField.select("operator", "Operator", Comparisons.OPERATORS).asRequired(),
                ConfigField.template("value", "Value")
                    .help("required unless the operator is is_empty or is_not_empty")),
            NodeAccess.NONE,
            List.of("true", "false"))
        .withSummary(NodeDescriptor.Summary.of(" ", "field", "operator", "value"))
        .withMechanics("result")
        .withOutput(
            "result", "true or false: the branch taken", "value", "the field’s value as compared");
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    // a missing operator is reported as a required field (List.contains(null) would throw)
    Object operator = node.config("operator");
    if (operator != null
        && !Comparisons.VALUELESS_OPERATORS.contains(operator)
        && node.config("value") == null) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.value", "is required for operator " + operator));
    }
    BranchEdges.check(node, canvas, descriptor().outputs(), false, problems);
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
    return BranchEdges.of(output.get("result"));
  }
}
