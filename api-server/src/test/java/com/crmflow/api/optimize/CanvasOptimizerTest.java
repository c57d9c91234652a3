package com.crmflow.api.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.registration.NodeExecutors;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each rule on a canvas that triggers it and on one that does not. */
class CanvasOptimizerTest {

  private static CanvasNode node(String id, String type, Map<String, Object> config) {
    return new CanvasNode(id, type, new Position(0, 0), new NodeData(id, config));
  }

  private static CanvasEdge edge(String source, String target) {
    return new CanvasEdge(source + "-" + target, source, target, "default", null);
  }

  private static CanvasEdge branch(String source, String target, String label) {
    return new CanvasEdge(source + "-" + target, source, target, "conditional", label);
  }

  private static Canvas chain(CanvasNode... nodes) {
    List<CanvasEdge> edges = new ArrayList<>();
    for (int i = 1; i < nodes.length; i++) {
      edges.add(edge(nodes[i - 1].id(), nodes[i].id()));
    }
    return new Canvas(List.of(nodes), edges);
  }

  private static List<String> rules(Canvas canvas, boolean automation) {
    return CanvasOptimizer.suggest(canvas, automation).stream()
        .map(s -> s.type() + ":" + s.targetNodeId())
        .toList();
  }

  private static final CanvasNode HOOK = node("hook", "webhook_trigger", Map.of());
  private static final Map<String, Object> SUBJECT = Map.of("subject", "Hi");

  @Test
  void backToBackEmails() {
    assertThat(rules(chain(node("a", "email", SUBJECT), node("b", "email", SUBJECT)), false))
        .contains("add_step:b");
    assertThat(
            rules(
                chain(
                    node("a", "email", SUBJECT),
                    node("w", "delay", Map.of("delayDays", 1)),
                    node("b", "email", SUBJECT)),
                false))
        .doesNotContain("add_step:b");
  }

  @Test
  void delayUnderAnHourOrOverThirtyDays() {
    assertThat(
            rules(
                chain(
                    HOOK,
                    node("w", "delay", Map.of("delayHours", 0.5)),
                    node("e", "email", SUBJECT)),
                true))
        .contains("adjust_timing:w");
    assertThat(
            rules(
                chain(
                    HOOK, node("w", "delay", Map.of("delayDays", 45)), node("e", "email", SUBJECT)),
                true))
        .contains("adjust_timing:w");
    assertThat(
            rules(
                chain(
                    HOOK, node("w", "delay", Map.of("delayDays", 2)), node("e", "email", SUBJECT)),
                true))
        .doesNotContain("adjust_timing:w");
  }

  @Test
  void twoDelaysInARow() {
    assertThat(
            rules(
                chain(
                    HOOK,
                    node("w1", "delay", Map.of("delayDays", 1)),
                    node("w2", "delay", Map.of("delayDays", 1)),
                    node("e", "email", SUBJECT)),
                true))
        .contains("adjust_timing:w2");
  }

  @Test
  void emailWithoutSubjectOrTemplate() {
    assertThat(rules(chain(HOOK, node("e", "email", Map.of("bodyHint", "x"))), true))
        .contains("improve_content:e");
    assertThat(
            rules(
                chain(
                    HOOK,
                    node(
                        "e",
                        "email",
                        Map.of("templateId", "00000000-0000-0000-0000-000000000001"))),
                true))
        .doesNotContain("improve_content:e");
  }

  @Test
  void unreachableAndDeadEndNodes() {
    Canvas canvas =
        new Canvas(
            List.of(HOOK, node("e", "email", SUBJECT), node("lost", "email", SUBJECT)),
            List.of(edge("hook", "e")));
    assertThat(rules(canvas, true)).contains("remove_step:lost").doesNotContain("remove_step:e");
    assertThat(
            rules(
                chain(
                    HOOK, node("e", "email", SUBJECT), node("w", "delay", Map.of("delayDays", 1))),
                true))
        .contains("remove_step:w");
  }

  @Test
  void conditionWithOneBranch() {
    CanvasNode condition =
        node("c", "condition", Map.of("field", "{{trigger.x}}", "operator", "is_empty"));
    Canvas oneBranch =
        new Canvas(
            List.of(HOOK, condition, node("e", "email", SUBJECT)),
            List.of(edge("hook", "c"), branch("c", "e", "true")));
    assertThat(rules(oneBranch, true)).contains("add_step:c");
    Canvas twoBranches =
        new Canvas(
            List.of(HOOK, condition, node("e", "email", SUBJECT), node("f", "email", SUBJECT)),
            List.of(edge("hook", "c"), branch("c", "e", "true"), branch("c", "f", "false")));
    assertThat(rules(twoBranches, true)).doesNotContain("add_step:c");
  }

  @Test
  void httpRequestWithoutErrorHandling() {
    Map<String, Object> call = Map.of("method", "GET", "url", "https://x.example");
    assertThat(
            rules(chain(HOOK, node("h", "http_request", call), node("e", "email", SUBJECT)), true))
        .contains("add_condition:h");
    assertThat(
            rules(
                chain(
                    HOOK,
                    node(
                        "h",
                        "http_request",
                        Map.of(
                            "method",
                            "GET",
                            "url",
                            "https://x.example",
                            "continueOnFailure",
                            true))),
                true))
        .doesNotContain("add_condition:h");
    CanvasNode check =
        node(
            "c",
            "condition",
            Map.of(
                "field", "{{http_request_1.statusCode}}", "operator", "less_than", "value", "300"));
    Canvas guarded =
        new Canvas(
            List.of(HOOK, node("h", "http_request", call), check, node("e", "email", SUBJECT)),
            List.of(edge("hook", "h"), edge("h", "c"), branch("c", "e", "true")));
    assertThat(rules(guarded, true)).doesNotContain("add_condition:h");
  }

  @Test
  void longFlowWithoutCondition() {
    List<CanvasNode> steps = new ArrayList<>(List.of(HOOK));
    for (int i = 0; i < 6; i++) {
      steps.add(
          node(
              "s" + i,
              i % 2 == 0 ? "email" : "delay",
              i % 2 == 0 ? SUBJECT : Map.of("delayDays", 1)));
    }
    assertThat(rules(chain(steps.toArray(CanvasNode[]::new)), true)).contains("add_condition:s0");
    assertThat(rules(chain(steps.subList(0, 5).toArray(CanvasNode[]::new)), true))
        .doesNotContain("add_condition:s0");
  }

  @Test
  void sequenceStartingWithADelay() {
    assertThat(
            rules(
                chain(node("w", "delay", Map.of("delayDays", 1)), node("e", "email", SUBJECT)),
                false))
        .contains("reorder:w");
    assertThat(
            rules(
                chain(
                    node("e", "email", SUBJECT),
                    node("w", "delay", Map.of("delayDays", 1)),
                    node("f", "email", SUBJECT)),
                false))
        .doesNotContain("reorder:w");
  }

  @Test
  void suggestionsCarryTitleDescriptionAndPriority() {
    Suggestion s =
        CanvasOptimizer.suggest(
                chain(node("a", "email", Map.of()), node("b", "email", SUBJECT)), false)
            .get(0);
    assertThat(s.title()).isNotBlank();
    assertThat(s.description()).isNotBlank();
    assertThat(s.priority()).isIn("high", "medium", "low");
  }

  /** A type of the tests only: an SMS, a message whose content is its text. */
  private static final NodeExecutor SMS =
      new TestType(
          new NodeDescriptor(
                  new NodeType("sms", false),
                  "SMS",
                  NodeDescriptor.ACTIONS,
                  "phone",
                  "texts the contact",
                  List.of(ConfigField.template("text", "Text").asContent()),
                  NodeAccess.NONE,
                  List.of())
              .withAdvice(NodeDescriptor.Advice.MESSAGE));

  /** A type of the tests only: a pause counted in minutes. */
  private static final NodeExecutor PAUSE =
      new TestType(
          new NodeDescriptor(
                  new NodeType("pause", false),
                  "Pause",
                  NodeDescriptor.LOGIC,
                  "pause",
                  "waits some minutes",
                  List.of(
                      ConfigField.number("minutes", "Minutes", 0, 100_000)
                          .duration(ChronoUnit.MINUTES)),
                  NodeAccess.NONE,
                  List.of())
              .withAdvice(NodeDescriptor.Advice.WAIT));

  @Test
  void theAdviceOfATypeIsItsDescriptors() {
    NodeCatalog catalog = NodeExecutors.with(List.of(SMS, PAUSE));

    List<String> backToBack =
        rules(
            chain(
                HOOK,
                node("a", "sms", Map.of("text", "hi")),
                node("b", "sms", Map.of()),
                node("p", "pause", Map.of("minutes", 20)),
                node("q", "pause", Map.of("minutes", 60 * 24 * 40)),
                node("c", "sms", Map.of("text", "bye"))),
            true,
            catalog);

    assertThat(backToBack)
        .contains("add_step:b", "improve_content:b", "adjust_timing:p", "adjust_timing:q")
        .doesNotContain("add_step:c", "improve_content:a", "improve_content:c");
    assertThat(
            rules(
                chain(node("p", "pause", Map.of("minutes", 120)), node("a", "sms", SUBJECT)),
                false,
                catalog))
        .contains("reorder:p")
        .doesNotContain("adjust_timing:p");
  }

  private static List<String> rules(Canvas canvas, boolean automation, NodeCatalog catalog) {
    return CanvasOptimizer.suggest(canvas, automation, catalog).stream()
        .map(s -> s.type() + ":" + s.targetNodeId())
        .toList();
  }

  /** A node type of these tests: its descriptor only. */
  private record TestType(NodeDescriptor descriptor) implements NodeExecutor {
    @Override
    public Map<String, Object> execute(CanvasNode node, NodeRun run) {
      return Map.of();
    }
  }
}
