package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.node.Comparisons;
import com.crmflow.workflow.node.NodeFailure;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes evaluated inside workflow code (deterministic, no I/O): condition and data_transform.
 */
final class NodeEvaluation {

  private NodeEvaluation() {}

  /** condition: {result, value}; the edges labelled with the result are taken. */
  static Map<String, Object> condition(CanvasNode node, Map<String, Object> scope) {
    String actual = TemplateResolver.render(String.valueOf(node.config("field")), scope);
    String expected =
        node.config("value") == null
            ? ""
            : TemplateResolver.render(String.valueOf(node.config("value")), scope);
    boolean result = Comparisons.compare(actual, String.valueOf(node.config("operator")), expected);
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("result", result);
    output.put("value", actual);
    return output;
  }

  /**
   * data_transform. map: {@code {outKey: "template"}} → an object of rendered strings. filter:
   * {@code {source, field, operator, value}} → {@code {items, count}} with the items of the list at
   * {@code source} whose {@code field} passes the comparison. merge: {@code {sources}} → the
   * objects at those paths merged, later ones winning.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> transform(CanvasNode node, Map<String, Object> scope) {
    Object raw = node.config("mappings");
    if (!(raw instanceof Map<?, ?> mappings)) {
      throw new NodeFailure("mappings must be an object");
    }
    Map<String, Object> output = new LinkedHashMap<>();
    switch (String.valueOf(node.config("transformType"))) {
      case "map" ->
          mappings.forEach(
              (key, value) ->
                  output.put(
                      String.valueOf(key), TemplateResolver.render(String.valueOf(value), scope)));
      case "filter" -> {
        Object source = TemplateResolver.lookup(scope, String.valueOf(mappings.get("source")));
        if (!(source instanceof List<?> items)) {
          throw new NodeFailure("filter source " + mappings.get("source") + " is not a list");
        }
        String field = String.valueOf(mappings.get("field"));
        String operator = String.valueOf(mappings.get("operator"));
        String expected =
            mappings.get("value") == null
                ? ""
                : TemplateResolver.render(String.valueOf(mappings.get("value")), scope);
        List<Object> kept = new ArrayList<>();
        for (Object item : items) {
          Object value =
              item instanceof Map<?, ?> m
                  ? TemplateResolver.lookup((Map<String, Object>) m, field)
                  : null;
          if (DataTransformNode.FILTER_OPERATORS.contains(operator)
              && Comparisons.compare(TemplateResolver.asString(value), operator, expected)) {
            kept.add(item);
          }
        }
        output.put("items", kept);
        output.put("count", kept.size());
      }
      case "merge" -> {
        Object sources = mappings.get("sources");
        if (!(sources instanceof List<?> paths)) {
          throw new NodeFailure("merge needs sources");
        }
        for (Object path : paths) {
          Object value = TemplateResolver.lookup(scope, String.valueOf(path));
          if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> output.put(String.valueOf(k), v));
          } else if (value != null) {
            throw new NodeFailure("merge source " + path + " is not an object");
          }
        }
      }
      default -> throw new NodeFailure("unknown transformType " + node.config("transformType"));
    }
    return output;
  }
}
