package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.SequenceSupport;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * On the embedded defaults, a run whose workflow an operator terminated ends before the embedded
 * server forgets the workflow, though the sweep has not come to it (it looks at runs a minute old,
 * 100 every 30 s).
 */
class ForgottenWorkflowsEndTheirRecordsTest extends ApiTest {

  @Autowired private WorkflowClient temporal;
  @Autowired private EmbeddedTemporal embedded;

  private LocalHttpServer peer;
  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    peer = new LocalHttpServer();
    tenant = newTenant();
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  private JsonNode run(String runId) {
    return tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
  }

  @Test
  void aRunWhoseTerminatedWorkflowIsForgottenEndsFailedSayingHow() throws Exception {
    String hook = SequenceSupport.uniqueId("hook");
    SequenceSupport.activeAutomation(
        tenant.api(), Flows.waitADayThenCall(hook, peer.url("/later")));
    String runId = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
    SequenceSupport.awaitNodeLog(tenant.api(), runId, 2);
    String workflowId = run(runId).get("workflow_id").asString();

    temporal.newUntypedWorkflowStub(workflowId).terminate("stuck, said the operator");
    assertThat(run(runId).get("status").asString())
        .as("the sweep looks only at runs a minute old")
        .isEqualTo("running");

    // a pass of the embedded server's retention that forgets every workflow closed until now
    assertThat(embedded.removeClosed(Instant.now().plusSeconds(1), 10_000)).isPositive();

    assertThatThrownBy(() -> temporal.newUntypedWorkflowStub(workflowId).describe())
        .isInstanceOf(WorkflowNotFoundException.class);
    JsonNode ended = run(runId);
    String error = "The workflow was terminated in Temporal: stuck, said the operator";
    assertThat(ended.get("status").asString()).isEqualTo("failed");
    assertThat(ended.get("error").asString()).isEqualTo(error);
    assertThat(ended.at("/node_log/1/nodeId").asString()).isEqualTo("wait");
    assertThat(ended.at("/node_log/1/status").asString()).isEqualTo("failed");
    assertThat(ended.at("/node_log/1/error").asString()).isEqualTo(error);
    assertThat(peer.received("/later")).isEmpty();
  }
}
