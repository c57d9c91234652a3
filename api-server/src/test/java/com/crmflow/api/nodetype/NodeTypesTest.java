package com.crmflow.api.nodetype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.node.NodeSecrets;
import com.crmflow.workflow.registration.NodeExecutors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which executor beans the API takes as node types of its own. */
class NodeTypesTest {

  @Test
  void aBeanTypeJoinsTheBuiltInOnes() {
    NodeTypes types = new NodeTypes(List.of(new AuditStampNode()));

    assertThat(types.names()).contains("audit_stamp").containsAll(NodeExecutors.catalog().names());
    assertThat(types.stepTypes()).contains("audit_stamp");
  }

  @Test
  void aBeanTypesSecretFieldIsMaskedAsTheServiceShowsIt() {
    NodeTypes types = new NodeTypes(List.of(new VaultNode()));

    assertThat(NodeSecrets.masked(types, "vault_lookup", Map.of("token", "s3cr3t", "x", "y")))
        .containsExactlyInAnyOrderEntriesOf(Map.of("token", NodeSecrets.MASK, "x", "y"));
    // the built-in catalog alone does not know the type
    assertThat(
            NodeSecrets.masked(NodeExecutors.catalog(), "vault_lookup", Map.of("token", "s3cr3t")))
        .containsEntry("token", "s3cr3t");
  }

  @Test
  void aBeanTypeThatStartsFlowsIsRefusedAtStart() {
    // nothing would fire it: each built-in trigger has its own way in
    NodeExecutor trigger =
        new VaultNode() {
          @Override
          public NodeDescriptor descriptor() {
            return new NodeDescriptor(
                new NodeType("queue_trigger", true),
                "Queue trigger",
                NodeDescriptor.TRIGGERS,
                "queue",
                "starts the flow when a message arrives",
                List.of(),
                NodeAccess.NONE,
                List.of());
          }
        };

    assertThatThrownBy(() -> new NodeTypes(List.of(trigger)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("queue_trigger")
        .hasMessageContaining("starts flows");
  }

  @Test
  void aBeanOfABuiltInTypeIsRefusedAsASecondExecutorOfIt() {
    NodeExecutor second = NodeExecutors.of(NodeType.DELAY);

    assertThatThrownBy(() -> new NodeTypes(List.of(second)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("delay");
  }

  /** A test-only node type with a secret field. */
  static class VaultNode implements NodeExecutor {

    @Override
    public NodeDescriptor descriptor() {
      return new NodeDescriptor(
          new NodeType("vault_lookup", false),
          "Vault lookup",
          NodeDescriptor.DATA,
          "vault",
          "reads a value from a vault",
          List.of(ConfigField.text("token", "Token").asRequired().secret(ConfigField.Secret.VALUE)),
          NodeAccess.writes("task"),
          List.of());
    }

    @Override
    public Map<String, Object> execute(CanvasNode node, NodeRun run) {
      return Map.of();
    }

    @Override
    public boolean waits() {
      return false;
    }
  }
}
