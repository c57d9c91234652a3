package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.SequenceSupport;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * On the embedded defaults, a run whose workflow an operator terminated ends at the retention's
 * next pass, though the sweep has not come to it (it looks at runs a minute old, 100 every 30 s),
 * and in any case before the embedded server forgets the workflow.
 */
class UnfinishedWorkflowsEndTheirRecordsTest extends ApiTest {

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

  /** Fires a hook → wait a day → call flow and terminates its run's workflow once it waits. */
  private String terminatedWhileWaiting() {
    String hook = SequenceSupport.uniqueId("hook");
    SequenceSupport.activeAutomation(
        tenant.api(), Flows.waitADayThenCall(hook, peer.url("/later")));
    String runId = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
    SequenceSupport.awaitNodeLog(tenant.api(), runId, 2);
    temporal
        .newUntypedWorkflowStub(run(runId).get("workflow_id").asString())
        .terminate("stuck, said the operator");
    assertThat(run(runId).get("status").asString())
        .as("the sweep looks only at runs a minute old")
        .isEqualTo("running");
    return runId;
  }

  private void assertEndedFailedSayingHow(String runId) {
    JsonNode ended = run(runId);
    String error = "The workflow was terminated in Temporal: stuck, said the operator";
    assertThat(ended.get("status").asString()).isEqualTo("failed");
    assertThat(ended.get("error").asString()).isEqualTo(error);
    assertThat(ended.at("/node_log/1/nodeId").asString()).isEqualTo("wait");
    assertThat(ended.at("/node_log/1/status").asString()).isEqualTo("failed");
    assertThat(ended.at("/node_log/1/error").asString()).isEqualTo(error);
    assertThat(peer.received("/later")).isEmpty();
  }

  @Test
  void aRunWhoseWorkflowIsTerminatedEndsAtTheNextPassOnceItHasBeenClosedAWhile() throws Exception {
    String runId = terminatedWhileWaiting();

    // a pass that hands over what closed until now and removes only what closed an hour ago
    embedded.removeClosed(
        Instant.now().minus(Duration.ofHours(1)), 10_000, Instant.now().plusSeconds(1));

    assertEndedFailedSayingHow(runId);
    String workflowId = run(runId).get("workflow_id").asString();
    assertThat(temporal.newUntypedWorkflowStub(workflowId).describe().getStatus())
        .as("still kept by the server")
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);
  }

  @Test
  void aRunWhoseTerminatedWorkflowIsForgottenEndsFailedSayingHow() throws Exception {
    String runId = terminatedWhileWaiting();

    // a pass that forgets every workflow closed until now, before it is due to be handed over
    assertThat(
            embedded.removeClosed(
                Instant.now().plusSeconds(1), 10_000, Instant.now().minus(Duration.ofHours(1))))
        .isPositive();

    String workflowId = run(runId).get("workflow_id").asString();
    assertThatThrownBy(() -> temporal.newUntypedWorkflowStub(workflowId).describe())
        .isInstanceOf(WorkflowNotFoundException.class);
    assertEndedFailedSayingHow(runId);
  }
}
