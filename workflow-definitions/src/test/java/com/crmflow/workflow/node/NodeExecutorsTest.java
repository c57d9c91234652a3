package com.crmflow.workflow.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.NodeType;
import org.junit.jupiter.api.Test;

class NodeExecutorsTest {

  @Test
  void everyNodeTypeHasItsOwnExecutor() {
    for (NodeType type : NodeType.values()) {
      NodeExecutor executor = NodeExecutors.of(type);
      assertThat(executor).as(type.value()).isNotNull();
      assertThat(executor.type()).isEqualTo(type);
    }
  }

  @Test
  void onlyNodesThatWaitOnTheWorldFlushTheLogFirst() {
    for (NodeType type : NodeType.values()) {
      boolean evaluatedInWorkflowCode =
          type.isTrigger() || type == NodeType.CONDITION || type == NodeType.DATA_TRANSFORM;
      assertThat(NodeExecutors.of(type).waits())
          .as(type.value())
          .isEqualTo(!evaluatedInWorkflowCode);
    }
  }
}
