package com.crmflow.workflow.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.NodeType;
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
      assertThat(NodeType.isTrigger(name)).as(name).isEqualTo(type.isTrigger());
      assertThat(NodeType.isTrigger(null)).as("a node without a type").isFalse();
      assertThat(executor.descriptor().type()).isEqualTo(type);
    }
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
              || type.equals(NodeType.DATA_TRANSFORM);
      assertThat(executor.waits()).as(type.value()).isEqualTo(!evaluatedInWorkflowCode);
    }
  }
}
