package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.Comparisons;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * data_transform, in workflow code: map {@code {outputKey: "template"}}; filter {@code {source:
 * "path", field, operator, value}}; merge {@code {sources: ["path", ...]}} (paths such as trigger
 * or http_request_1.body).
 */
final class DataTransformNode implements NodeExecutor {

  static final List<String> TRANSFORM_TYPES = List.of("map", "filter", "merge");
  static final List<String> FILTER_OPERATORS = Comparisons.OPERATORS;

  @Override
  public NodeType type() {
    return NodeType.DATA_TRANSFORM;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.DATA_TRANSFORM,
            "Data transform",
            NodeDescriptor.DATA,
            "shuffle",
            "reshapes data",
            List.of(
                ConfigField.select("transformType", "Transform", TRANSFORM_TYPES).asRequired(),
                ConfigField.of("mappings", "Mappings (JSON object)", FieldKind.JSON)
                    .asRequired()
                    .help(
                        "map: {outKey: \"template\"}; filter: {source, field, operator, value};"
                            + " merge: {sources: [paths]}")),
            NodeAccess.NONE,
            List.of())
        .withSummary(NodeDescriptor.Summary.of(" ", "transformType"))
        .withOutput(
            "{mappings}",
            "map: each key of the mappings, its template filled in",
            "items",
            "filter: the items kept",
            "count",
            "filter: how many were kept");
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    if (!(node.config("mappings") instanceof Map<?, ?> mappings)) {
      return;
    }
    String field = "data.config.mappings";
    switch (String.valueOf(node.config("transformType"))) {
      case "map" -> {
        if (mappings.isEmpty() || !mappings.values().stream().allMatch(v -> v instanceof String)) {
          problems.add(
              CanvasProblem.node(node.id(), field, "map needs {outputKey: \"template\", ...}"));
        }
      }
      case "filter" -> {
        if (!(mappings.get("source") instanceof String)
            || !(mappings.get("field") instanceof String)
            || !(mappings.get("operator") instanceof String operator)
            || !FILTER_OPERATORS.contains(operator)) {
          problems.add(
              CanvasProblem.node(
                  node.id(), field, "filter needs {source, field, operator, value}"));
        }
      }
      case "merge" -> {
        if (!(mappings.get("sources") instanceof List<?> sources)
            || sources.isEmpty()
            || !sources.stream().allMatch(s -> s instanceof String)) {
          problems.add(
              CanvasProblem.node(node.id(), field, "merge needs {sources: [\"path\", ...]}"));
        }
      }
      default -> {
        // an unknown transformType is reported by the structural tier
      }
    }
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    return NodeEvaluation.transform(node, run.scope());
  }

  @Override
  public boolean waits() {
    return false;
  }

  /** The mappings' {@code source} and {@code sources}: paths it looks up, not templates. */
  @Override
  public List<String> pathsLookedUp(CanvasNode node) {
    if (!(node.config("mappings") instanceof Map<?, ?> mappings)) {
      return List.of();
    }
    List<String> paths = new ArrayList<>();
    if (mappings.get("source") instanceof String source) {
      paths.add(source);
    }
    if (mappings.get("sources") instanceof Collection<?> sources) {
      sources.forEach(source -> paths.add(String.valueOf(source)));
    }
    return paths;
  }
}
