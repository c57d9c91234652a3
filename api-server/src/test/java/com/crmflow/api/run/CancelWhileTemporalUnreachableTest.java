package com.crmflow.api.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.reset;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.workflow.contract.RunResult;
import io.grpc.Status;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowServiceException;
import io.temporal.client.WorkflowStub;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

/**
 * Cancelling a run while Temporal cannot be reached answers 503 and changes nothing: a run marked
 * cancelled whose workflow went on would still make its calls. Temporal's outage is simulated on
 * the client (its cancel call fails as gRPC does when the server is down); the database, the
 * service and the workflow are real.
 */
// a configuration of its own: its service stops after the class instead of idling beside the others
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class CancelWhileTemporalUnreachableTest extends ApiTest {

  @MockitoSpyBean private WorkflowClient temporal;

  @Test
  void aCancelThatCannotReachTemporalChangesNothingAndCanBeRepeated() {
    TenantClient tenant = newTenant();
    String hook = SequenceSupport.uniqueId("hook");
    SequenceSupport.activeAutomation(
        tenant.api(), Flows.waitADayThenCall(hook, "http://127.0.0.1:9/"));
    String runId = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
    String workflowId = "run-" + runId;
    SequenceSupport.awaitNodeLog(tenant.api(), runId, 2); // waiting on the delay

    WorkflowServiceException down =
        new WorkflowServiceException(
            WorkflowExecution.newBuilder().setWorkflowId(workflowId).build(),
            "AutomationRunWorkflow",
            Status.UNAVAILABLE.withDescription("connection refused").asRuntimeException());
    WorkflowStub unreachable = mock(WorkflowStub.class);
    // the cancel first looks the workflow up (to cancel only this run's execution), then cancels
    doThrow(down).when(unreachable).describe();
    doThrow(down).when(unreachable).cancel();
    doReturn(unreachable).when(temporal).newUntypedWorkflowStub(workflowId);
    // the client retries with one Idempotency-Key: the 503 is not kept for it
    ApiClient retrying = tenant.api().withHeader("Idempotency-Key", "cancel-" + runId);
    try {
      ApiResponse refused = retrying.post("/api/v1/automation-runs/" + runId + "/cancel", Map.of());

      assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
      assertThat(refused.text("/detail")).contains("cannot be reached");
      assertThat(refused.header("Retry-After")).isEqualTo("5");
    } finally {
      reset(temporal);
    }
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
        .as("unchanged")
        .isEqualTo(RunResult.RUNNING);
    assertThat(
            temporal.fetchHistory(workflowId).getEvents().stream()
                .noneMatch(HistoryEvent::hasWorkflowExecutionCancelRequestedEventAttributes))
        .isTrue();

    // Temporal back: the same call cancels both
    ApiResponse cancelled = retrying.post("/api/v1/automation-runs/" + runId + "/cancel", Map.of());
    assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
    assertThat(cancelled.text("/run/status")).isEqualTo(RunResult.CANCELLED);
    assertThat(cancelled.header("Idempotent-Replayed")).isNull();
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                temporal.fetchHistory(workflowId).getEvents().stream()
                    .anyMatch(HistoryEvent::hasWorkflowExecutionCanceledEventAttributes));
  }
}
