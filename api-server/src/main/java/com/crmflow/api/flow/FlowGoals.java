package com.crmflow.api.flow;

import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.node.FlowGoal;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The {@code goal} of a canvas body: a condition on the run's contact in the shape of a condition
 * node's config ({@link FlowGoal}), stored with the canvas version beside its nodes, edges and
 * settings.
 */
final class FlowGoals {

  private FlowGoals() {}

  /**
   * The goal a body sends: null when it sends none (the latest version's stays), empty for {@code
   * "goal": null} (the flow has none from this version on), else the goal; each problem named
   * {@code goal.<field>}.
   */
  @SuppressWarnings("unchecked")
  static Optional<Map<String, Object>> read(
      JsonNode json, ObjectMapper mapper, java.util.List<FieldProblem> problems) {
    if (json == null) {
      return null;
    }
    if (json.isNull()) {
      return Optional.empty();
    }
    Object sent = json.isObject() ? mapper.convertValue(json, Map.class) : json.toString();
    Map<String, String> found = FlowGoal.problems(sent);
    found.forEach(
        (field, message) ->
            problems.add(new FieldProblem(field.isEmpty() ? "goal" : "goal." + field, message)));
    return found.isEmpty() ? Optional.of((Map<String, Object>) sent) : null;
  }
}
