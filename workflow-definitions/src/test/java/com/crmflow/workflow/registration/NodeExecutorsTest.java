package com.crmflow.workflow.registration;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.rules.CanvasRules;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeExecutorsTest {

  @Test
  void everyNodeTypeHasItsOwnExecutor() {
    assertThat(NodeExecutors.catalog().names())
        .doesNotHaveDuplicates()
        .contains(
            NodeType.WEBHOOK_TRIGGER.value(),
            NodeType.SCHEDULE_TRIGGER.value(),
            NodeType.CRM_EVENT_TRIGGER.value(),
            NodeType.EMAIL.value(),
            NodeType.DELAY.value(),
            NodeType.CONDITION.value(),
            NodeType.HTTP_REQUEST.value(),
            NodeType.CHAT_MESSAGE.value(),
            NodeType.CRM_UPDATE.value(),
            NodeType.CREATE_RECORD.value(),
            NodeType.DATA_TRANSFORM.value());
    for (String name : NodeExecutors.catalog().names()) {
      NodeExecutor executor = NodeExecutors.catalog().find(name).orElseThrow();
      NodeType type = executor.type();
      assertThat(NodeExecutors.of(type)).isSameAs(executor);
      assertThat(NodeExecutors.catalog().isTrigger(name)).as(name).isEqualTo(type.isTrigger());
      assertThat(executor.descriptor().type()).isEqualTo(type);
    }
  }

  @Test
  void whetherANodeStartsItsFlowIsItsTypesDescriptorsAnswer() {
    assertThat(NodeExecutors.catalog().triggerNames())
        .containsExactly("webhook_trigger", "schedule_trigger", "crm_event_trigger");
    assertThat(NodeExecutors.catalog().isTrigger(null)).as("a node without a type").isFalse();

    // a catalog with a trigger type of its own, and without the built-in webhook_trigger
    NodeExecutor inbox =
        new NodeExecutor() {
          @Override
          public NodeDescriptor descriptor() {
            return new NodeDescriptor(
                new NodeType("inbox_trigger", true),
                "Inbox trigger",
                NodeDescriptor.TRIGGERS,
                "inbox",
                "starts the flow when a mail arrives",
                List.of(),
                NodeAccess.NONE,
                List.of());
          }

          @Override
          public Map<String, Object> execute(CanvasNode node, NodeRun run) {
            return Map.of();
          }
        };
    NodeCatalog catalog = NodeCatalog.of(List.of(NodeExecutors.of(NodeType.DELAY), inbox));
    Canvas canvas =
        new Canvas(
            List.of(
                node("wait", "delay", Map.of("delayDays", 1)),
                node("in", "inbox_trigger", Map.of()),
                node("hook", "webhook_trigger", Map.of())),
            List.of(new CanvasEdge("e1", "wait", "in", CanvasEdge.DEFAULT, null)));

    assertThat(catalog.triggerNames()).containsExactly("inbox_trigger");
    assertThat(catalog.triggers(canvas)).extracting(CanvasNode::id).containsExactly("in");
    assertThat(catalog.stepCount(canvas)).isEqualTo(2);
    assertThat(CanvasRules.structural(canvas, catalog))
        .extracting(CanvasProblem::message)
        .contains("a trigger node (in) has no incoming edges");
  }

  private static CanvasNode node(String id, String type, Map<String, Object> config) {
    return new CanvasNode(id, type, new Position(0, 0), new NodeData(id, config));
  }

  @Test
  void everyFieldOfEveryDescriptorIsNamedOnceAndChecked() {
    for (NodeExecutor executor : NodeExecutors.builtIn()) {
      NodeDescriptor descriptor = executor.descriptor();
      assertThat(descriptor.fields())
          .as(descriptor.name())
          .extracting(ConfigField::key)
          .doesNotHaveDuplicates();
      assertThat(descriptor.label()).as(descriptor.name()).isNotBlank();
      assertThat(descriptor.group())
          .as(descriptor.name())
          .isIn(
              NodeDescriptor.TRIGGERS,
              NodeDescriptor.ACTIONS,
              NodeDescriptor.LOGIC,
              NodeDescriptor.DATA);
      assertThat(descriptor.group().equals(NodeDescriptor.TRIGGERS))
          .as(descriptor.name())
          .isEqualTo(descriptor.isTrigger());
    }
  }

  @Test
  void aFieldsLimitsAreItsChecks() {
    ConfigField note = ConfigField.template("note", "Note").maxLength(5);
    assertThat(note.check().problem("short")).isNull();
    assertThat(note.check().problem("longer")).isEqualTo("must be at most 5 characters");
    assertThat(note.check().problem(3)).isEqualTo("must be a string");
    ConfigField count = ConfigField.number("count", "Count", 1, 10);
    assertThat(count.check().problem(10)).isNull();
    assertThat(count.check().problem(11)).isEqualTo("must be a number from 1 to 10");
    ConfigField level = ConfigField.select("level", "Level", java.util.List.of("info", "warn"));
    assertThat(level.check().problem("loud")).isEqualTo("must be one of [info, warn]");
  }

  @Test
  void onlyNodesThatWaitOnTheWorldFlushTheLogFirst() {
    for (NodeExecutor executor : NodeExecutors.builtIn()) {
      NodeType type = executor.type();
      boolean evaluatedInWorkflowCode =
          type.isTrigger()
              || type.equals(NodeType.CONDITION)
              || type.equals(NodeType.SPLIT)
              || type.equals(NodeType.DATA_TRANSFORM);
      assertThat(executor.waits()).as(type.value()).isEqualTo(!evaluatedInWorkflowCode);
    }
  }
}
