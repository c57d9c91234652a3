package com.crmflow.workflow.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.builtin.BuiltInNodes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a node sends its secrets is what its type's descriptor marks. */
class NodeSecretsTest {

  @Test
  void anHttpRequestSendsToItsMethodAndOrigin() {
    assertThat(
            NodeSecrets.destination(
                BuiltInNodes.catalog(),
                "http_request",
                Map.of("method", " post", "url", "HTTPS://Api.Example.com/x?y=1")))
        .isEqualTo("POST https://api.example.com:443");
    assertThat(
            NodeSecrets.destination(
                BuiltInNodes.catalog(), "http_request", Map.of("url", "http://h.example:8080/")))
        .isEqualTo(" http://h.example:8080");
    assertThat(
            NodeSecrets.destination(
                BuiltInNodes.catalog(), "webhook_trigger", Map.of("secretToken", "s")))
        .as("a webhook's token is checked against callers, never sent")
        .isNull();
    assertThat(NodeSecrets.destination(BuiltInNodes.catalog(), "no_such_type", Map.of())).isNull();
  }

  @Test
  void aTypesDestinationIsTheFieldsItsDescriptorMarks() {
    NodeExecutor upload =
        new NodeExecutor() {
          @Override
          public NodeDescriptor descriptor() {
            return new NodeDescriptor(
                new NodeType("sftp_upload", false),
                "SFTP upload",
                NodeDescriptor.ACTIONS,
                "upload",
                "uploads a file",
                List.of(
                    ConfigField.text("path", "Path"),
                    ConfigField.template("endpoint", "Endpoint")
                        .destination(ConfigField.Destination.ORIGIN)),
                NodeAccess.NONE,
                List.of());
          }

          @Override
          public Map<String, Object> execute(CanvasNode node, NodeRun run) {
            return Map.of();
          }
        };
    NodeCatalog catalog = NodeCatalog.of(List.of(upload));

    assertThat(
            NodeSecrets.destination(
                catalog,
                "sftp_upload",
                Map.of("path", "/in/a.csv", "endpoint", "sftp://Files.example.com:22/in")))
        .isEqualTo("sftp://files.example.com:22");
  }

  @Test
  void credentialEntriesAreNamedByOnePattern() {
    assertThat(
            List.of(
                "Authorization",
                "proxy-authorization",
                "Cookie",
                "X-Api-Key",
                "X-Auth-Token",
                "X-Signature",
                "X-Client-Secret",
                "X-Password"))
        .allMatch(NodeSecrets::isCredentialHeader);
    assertThat(List.of("Content-Type", "Accept", "X-Cookie-Jar", "Set-Cookie2", "X-Request-Id"))
        .noneMatch(NodeSecrets::isCredentialHeader);
  }
}
