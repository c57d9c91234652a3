package com.crmflow.workflow.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.NodeType;
import org.junit.jupiter.api.Test;

class NodeExecutorsTest {

  @Test
  void everyNodeTypeHasItsOwnExecutor() {
    assertThat(NodeExecutors.catalog().names()).hasSize(11).doesNotHaveDuplicates();
    for (String name : NodeExecutors.catalog().names()) {
      NodeType type = NodeType.of(name).orElseThrow();
      NodeExecutor executor = NodeExecutors.of(type);
      assertThat(executor).as(name).isNotNull();
      assertThat(executor.type()).isEqualTo(type);
      assertThat(executor.descriptor().type()).isEqualTo(type);
    }
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
