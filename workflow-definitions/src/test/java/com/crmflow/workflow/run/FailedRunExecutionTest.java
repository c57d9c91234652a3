package com.crmflow.workflow.run;

import static com.crmflow.workflow.run.Canvases.edge;
import static com.crmflow.workflow.run.Canvases.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunResult;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run's workflow execution ends as the run does: a failed run's execution fails (naming the node
 * and the cause, not retryable) once the run's end is recorded, a cancelled run's is cancelled, and
 * a completed run's completes without a marker of the change.
 */
@Timeout(60)
class FailedRunExecutionTest {

  private TestWorkflowEnvironment env;
  private final InMemoryRecorder recorder = new InMemoryRecorder();
  private final ScriptedHttp http = new ScriptedHttp(0);

  @BeforeEach
  void setUp() {
    env = WorkflowTestEnvironments.newInstance();
    Worker automation = env.newWorker(TaskQueues.AUTOMATION);
    automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
    automation.registerActivitiesImplementations(recorder, http);
    env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder);
    env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(http);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  /** webhook → a call to {@code path} (ScriptedHttp: "/refused" is a 404). */
  private static Canvas oneCall(String path) {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(
                "call",
                "http_request",
                Map.of("method", "GET", "url", "https://example.com" + path))),
        List.of(edge("hook", "call")));
  }

  private WorkflowStub start(String runId, Canvas canvas, boolean local) {
    AutomationRunWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                AutomationRunWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setTaskQueue(TaskQueues.AUTOMATION)
                    .setWorkflowId(AutomationRunWorkflow.workflowId(runId))
                    .build());
    WorkflowClient.start(
        workflow::run,
        RunInputBuilder.run(runId, canvas)
            .localActivities(local)
            .inlineChains(local)
            .startedWithChanges(InterpreterChanges.CHANGES)
            .build());
    return WorkflowStub.fromTyped(workflow);
  }

  private WorkflowExecutionStatus status(String runId) {
    return env.getWorkflowClient()
        .newUntypedWorkflowStub(AutomationRunWorkflow.workflowId(runId))
        .describe()
        .getStatus();
  }

  private String history(String runId) {
    return env.getWorkflowClient()
        .fetchHistory(AutomationRunWorkflow.workflowId(runId))
        .toJson(false);
  }

  /** The payloads of the run's markers (versions, local activities) as text. */
  private String markers(String runId) {
    return HistoryMarkers.text(
        env.getWorkflowClient().fetchHistory(AutomationRunWorkflow.workflowId(runId)));
  }

  @ParameterizedTest(name = "local activities: {0}")
  @ValueSource(booleans = {true, false})
  void aFailedRunFailsItsExecutionNamingTheNodeAndTheCauseOnceItsEndIsRecorded(boolean local) {
    String runId = "failed-" + local;
    WorkflowStub run = start(runId, oneCall("/refused"), local);

    WorkflowFailedException failed =
        catchThrowableOfType(WorkflowFailedException.class, () -> run.getResult(RunResult.class));

    assertThat(failed.getCause()).isInstanceOf(ApplicationFailure.class);
    ApplicationFailure failure = (ApplicationFailure) failed.getCause();
    assertThat(failure.getType()).isEqualTo(RunResult.FAILURE_TYPE);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(failure.getOriginalMessage())
        .isEqualTo("node call (http_request) failed: HTTP 404 from peer");
    assertThat(status(runId)).isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED);
    // the run's end and its node log were recorded before the execution failed
    assertThat(recorder.finished).containsEntry(runId, RunResult.FAILED);
    assertThat(recorder.log(runId))
        .extracting(e -> e.nodeId() + " " + e.status())
        .containsExactly("hook completed", "call failed");
    assertThat(history(runId))
        .contains("EVENT_TYPE_WORKFLOW_EXECUTION_FAILED")
        .doesNotContain("EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED");
    assertThat(markers(runId)).contains(InterpreterChanges.FAILED_RUN_FAILS_WORKFLOW);
  }

  @Test
  void aCompletedRunCompletesItsExecutionWithoutAMarkerOfTheChange() {
    WorkflowStub run = start("completed", oneCall("/ok"), true);

    assertThat(run.getResult(RunResult.class).status()).isEqualTo(RunResult.COMPLETED);
    assertThat(status("completed"))
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    assertThat(recorder.finished).containsEntry("completed", RunResult.COMPLETED);
    assertThat(history("completed")).contains("EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED");
    assertThat(markers("completed")).doesNotContain(InterpreterChanges.FAILED_RUN_FAILS_WORKFLOW);
  }

  @Test
  void aCancelledRunCancelsItsExecution() {
    WorkflowStub run = start("cancelled", Canvases.threeDayWait(), true);
    env.getWorkflowClient()
        .newUntypedWorkflowStub(AutomationRunWorkflow.workflowId("cancelled"))
        .cancel();

    WorkflowFailedException failed =
        catchThrowableOfType(WorkflowFailedException.class, () -> run.getResult(RunResult.class));

    assertThat(failed.getCause()).isInstanceOf(CanceledFailure.class);
    assertThat(status("cancelled"))
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CANCELED);
    assertThat(recorder.finished).containsEntry("cancelled", RunResult.CANCELLED);
  }
}
