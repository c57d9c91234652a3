package com.crmflow.api.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.nodetype.AuditStampNode;
import com.crmflow.workflow.registration.NodeExecutors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model's contract names the node types and their fields as their descriptors declare them. */
class CanvasContractTest {

  @Test
  void thePromptListsEveryNodeTypeWithItsFieldsFromItsDescriptor() {
    CanvasContract contract = new CanvasContract(NodeExecutors.catalog());
    String prompt = contract.systemPrompt(true, List.of());

    for (String type : NodeExecutors.catalog().names()) {
      assertThat(prompt).contains("\n- " + type + ": ");
    }
    assertThat(prompt)
        .contains(
            "- http_request: calls a URL. config method* (one of: GET, POST, PUT, PATCH, DELETE),"
                + " url* (templates allowed),")
        .contains("timeoutSeconds (1-60)")
        .contains("Its outgoing edges are labelled \"true\" and \"false\".")
        .contains("eventType* (one of: contact.created,")
        // what the service sets and what is secret are not the model's to write
        .doesNotContain("webhookPath")
        .doesNotContain("secretToken")
        .doesNotContain("%NODE_TYPES%");
    assertThat(contract.nodeTypeNames()).isEqualTo(NodeExecutors.catalog().names());
  }

  @Test
  void aNodeTypeTheApiAddsIsInThePromptAndTheToolsTypes() {
    CanvasContract contract = new CanvasContract(NodeExecutors.with(List.of(new AuditStampNode())));

    assertThat(contract.systemPrompt(true, List.of()))
        .contains(
            "\n- audit_stamp: files a task that stamps the run for the auditors. config note* (what"
                + " to stamp; templates allowed), level (one of: info, warn)");
    assertThat(contract.nodeTypeNames()).endsWith("audit_stamp");
    assertThat(contract.toolSpec().parameters().toString()).contains("audit_stamp");
  }
}
