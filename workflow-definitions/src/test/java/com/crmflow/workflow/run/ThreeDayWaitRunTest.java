package com.crmflow.workflow.run;

import static org.awaitility.Awaitility.await;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Runs of webhook → wait 3 days → call on Temporal's test environment, started as api-server starts
 * them on the embedded defaults, for the tests of what reaches a waiting run (a pause's control, a
 * move): the recorder keeps each run's node log, the call answers from a script.
 */
abstract class ThreeDayWaitRunTest {

  protected TestWorkflowEnvironment env;
  protected final InMemoryRecorder recorder = new InMemoryRecorder();
  protected final ScriptedHttp http = new ScriptedHttp(0);

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

  /** Starts the run and returns once its delay has started. */
  protected void start(String runId) {
    start(runId, Canvases.threeDayWait());
  }

  /** Starts a run of the canvas and returns once its node {@code wait} has started. */
  protected void start(String runId, Canvas canvas) {
    RunInput input =
        RunInputBuilder.run(runId, canvas)
            .payload(Map.of("id", 7))
            .embedded()
            .startedWithChanges(InterpreterChanges.CHANGES)
            .build();
    WorkflowClient.start(
        env.getWorkflowClient()
                .newWorkflowStub(
                    AutomationRunWorkflow.class,
                    WorkflowOptions.newBuilder()
                        .setTaskQueue(TaskQueues.AUTOMATION)
                        .setWorkflowId(AutomationRunWorkflow.workflowId(runId))
                        .build())
            ::run,
        input);
    await().atMost(Duration.ofSeconds(20)).until(() -> entry(runId, "wait").isPresent());
  }

  protected AutomationRunWorkflow running(String runId) {
    return env.getWorkflowClient()
        .newWorkflowStub(AutomationRunWorkflow.class, AutomationRunWorkflow.workflowId(runId));
  }

  protected RunResult result(String runId) {
    return WorkflowStub.fromTyped(running(runId)).getResult(RunResult.class);
  }

  protected Optional<NodeLogEntry> entry(String runId, String nodeId) {
    return recorder.log(runId).stream().filter(e -> e.nodeId().equals(nodeId)).findFirst();
  }

  /** The run's history replays on this code. */
  protected void replays(String runId) throws Exception {
    WorkflowReplayer.replayWorkflowExecution(
        env.getWorkflowClient().fetchHistory(AutomationRunWorkflow.workflowId(runId)),
        AutomationRunWorkflowImpl.class);
  }
}
