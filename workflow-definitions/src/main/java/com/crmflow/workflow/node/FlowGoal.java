package com.crmflow.workflow.node;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.RecordWatchActivities;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.template.TemplateReference;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A flow's goal ({@code Canvas#goal}): a condition on the run's contact, in the shape of a
 * condition node's config ({@code {"field": "{{contact.lifecycle_stage}}", "operator": "equals",
 * "value": "customer"}}), compared as a condition node compares. Its templates read the contact
 * only: the goal is judged where no run's variables are at hand (api-server, when a change to the
 * contact is recorded), so a goal means the same wherever it is judged.
 */
public final class FlowGoal {

  /** Whether the goal holds, asked where the records live (locally when it may). */
  public static final NodeActivity<RecordWatchActivities> ACTIVITY =
      NodeActivity.on(TaskQueues.CRM, RecordWatchActivities.class).orLocal();

  /**
   * The watcher name of a run's goal in the record watch index, and of the events routed to the run
   * because its contact met the goal: no node id has parentheses, so it never names a node.
   */
  public static final String WATCHER = "(goal)";

  /** The node log's output at the node where the goal ended the run. */
  public static final String MET = "goal met";

  private static final Set<String> KEYS = Set.of("field", "operator", "value");

  private FlowGoal() {}

  /**
   * Whether the run's contact meets its canvas's goal now: asked of api-server ({@link
   * RecordWatchActivities#goalHolds}, a local activity on the embedded defaults) only for a run
   * whose canvas has a goal and that names a contact.
   */
  public static boolean holdsNow(CanvasNode next, NodeRun run, Map<String, Object> goal) {
    String contactId = run.contactId();
    if (goal == null || contactId == null) {
      return false;
    }
    String tenantId = run.input().tenantId();
    Boolean holds =
        NodeActivities.call(
            ACTIVITY,
            next,
            run,
            activities -> activities.goalHolds(tenantId, contactId, goal),
            tenantId,
            contactId,
            goal);
    return Boolean.TRUE.equals(holds);
  }

  /** Whether the contact (its fields as a run sees them, {@code {{contact.*}}}) meets the goal. */
  public static boolean holds(Map<String, Object> goal, Map<String, Object> contact) {
    if (goal == null || contact == null) {
      return false;
    }
    Map<String, Object> scope = Map.of("contact", contact);
    String actual = TemplateResolver.render(String.valueOf(goal.get("field")), scope);
    String expected =
        goal.get("value") == null
            ? ""
            : TemplateResolver.render(String.valueOf(goal.get("value")), scope);
    return Comparisons.compare(actual, String.valueOf(goal.get("operator")), expected);
  }

  /**
   * What is wrong with a goal as sent, by its field ({@code field}, {@code operator}, {@code
   * value}, or the empty name for the goal itself); empty when it is a goal.
   */
  public static Map<String, String> problems(Object sent) {
    Map<String, String> problems = new LinkedHashMap<>();
    if (!(sent instanceof Map<?, ?> goal)) {
      problems.put("", "must be an object {field, operator, value}");
      return problems;
    }
    for (Object key : goal.keySet()) {
      if (!KEYS.contains(String.valueOf(key))) {
        problems.put(String.valueOf(key), "is not a field of a goal (field, operator, value)");
      }
    }
    Object field = goal.get("field");
    if (!(field instanceof String text) || text.isBlank()) {
      problems.put("field", "is required: a template of the contact such as {{contact.stage}}");
    } else {
      List<TemplateReference> references = TemplateReference.in(text);
      if (references.isEmpty()) {
        problems.put("field", "must read the contact, such as {{contact.lifecycle_stage}}");
      } else if (references.stream().anyMatch(r -> !"contact".equals(r.source()))) {
        problems.put("field", "may read only the contact ({{contact.*}})");
      }
    }
    Object operator = goal.get("operator");
    if (!(operator instanceof String op) || !Comparisons.OPERATORS.contains(op)) {
      problems.put("operator", "must be one of " + Comparisons.OPERATORS);
    } else if (!Comparisons.VALUELESS_OPERATORS.contains(op)) {
      Object value = goal.get("value");
      if (value == null) {
        problems.put("value", "is required for operator " + op);
      } else if (!(value instanceof String
          || value instanceof Number
          || value instanceof Boolean)) {
        problems.put("value", "must be a string, a number or true/false");
      } else if (value instanceof String text
          && TemplateReference.in(text).stream().anyMatch(r -> !"contact".equals(r.source()))) {
        problems.put("value", "may read only the contact ({{contact.*}})");
      }
    }
    return problems;
  }
}
