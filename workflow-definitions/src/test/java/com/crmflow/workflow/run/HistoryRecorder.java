package com.crmflow.workflow.run;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.canvas.Canvas;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Records the histories that {@link HistoryReplayTest} replays. Run it when the interpreter's
 * behaviour changes on purpose (behind a {@code Workflow.getVersion} guard), and commit the new
 * files next to the old ones under a new prefix; never rewrite the old ones. Unprefixed files are
 * version 0 (one recording activity per entry); {@code batched-} files are version 1 of {@value
 * AutomationRunWorkflowImpl#BATCHED_RECORDING}; {@code local-} files are runs with {@link
 * RunInput#localActivities}, {@link RunInput#inlineChains} and {@link RunInput#triggerLogged} (as
 * api-server starts a trigger's runs on its embedded defaults); {@code resumed-} files are runs
 * given a {@link RunResume} (a run whose workflow an embedded server's restart lost). It writes
 * today's three (version 1 of {@value AutomationRunWorkflowImpl#FAILURE_SETTLES_BRANCHES}, a retry
 * that starts at several nodes, version 1 of {@value
 * AutomationRunWorkflowImpl#FLUSH_ENDED_BRANCHES}); the {@code resumed-} and {@code
 * local-failure-cuts-delay} files came before them:
 *
 * <pre>
 * ./mvnw -pl workflow-definitions test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -cp workflow-definitions/target/test-classes:workflow-definitions/target/classes:$(cat cp.txt) \
 *     com.crmflow.workflow.run.HistoryRecorder
 * </pre>
 */
public final class HistoryRecorder {

  private HistoryRecorder() {}

  public static void main(String[] args) throws Exception {
    Path target =
        Path.of(args.length > 0 ? args[0] : "workflow-definitions/src/test/resources/histories");
    Files.createDirectories(target);
    // a branch fails while a call is in flight in another and a third waits a day: version 1 of
    // FAILURE_SETTLES_BRANCHES lets the call finish and logs the node after it as not started
    Canvas canvas = Canvases.failureBesideASlowCallAndADelay();
    record(target, firstRun("local-failure-settles-branches", canvas), false);
    // its retry starts at every node it left unrun at once (RunInput#alsoStartAt), numbering them
    // as the failed run did (bad was http_request_1, slow http_request_2), its delay waking when it
    // would have (RunInput#delaysWakeUp); bad fails again
    record(
        target,
        input(
            "local-retry-of-unrun-nodes",
            canvas,
            "bad",
            List.of("after", "wait"),
            List.of("hook", "slow"),
            Map.of("webhook_trigger_1", Map.of(), "http_request_2", Map.of("statusCode", 200)),
            Map.of("bad", 1, "wait", 1),
            // the cut delay wakes when it would have in the failed run
            Map.of("wait", NodeLogEntry.timestamp(Instant.now().plus(Duration.ofHours(20))))),
        false);
    // a call's branch ends while a day's delay waits: version 1 of FLUSH_ENDED_BRANCHES writes it
    record(target, firstRun("local-branch-ends-beside-delay", Canvases.callBesideADelay()), true);
  }

  /** A trigger's run (not a retry) as api-server starts it on its embedded defaults. */
  private static RunInput firstRun(String name, Canvas canvas) {
    return input(name, canvas, "hook", null, List.of(), Map.of(), null, null);
  }

  /** A run as api-server starts it on its embedded defaults. */
  private static RunInput input(
      String name,
      Canvas canvas,
      String startNodeId,
      List<String> alsoStartAt,
      List<String> completedNodeIds,
      Map<String, Object> priorOutputs,
      Map<String, Integer> rerunOrdinals,
      Map<String, String> delaysWakeUp) {
    return new RunInput(
        "tenant",
        "sequence",
        name,
        1,
        canvas,
        startNodeId,
        Map.of("source", "crm"),
        null,
        priorOutputs,
        completedNodeIds,
        true,
        true,
        true,
        null,
        alsoStartAt,
        rerunOrdinals,
        delaysWakeUp);
  }

  /**
   * Runs the input to its end. In real time unless {@code skipTime} (a run that waits on a delay to
   * its end): with time skipping the test server may skip ahead while a local activity runs, which
   * it cannot see. A call to a "/slow" URL is answered once a failure is recorded.
   */
  private static void record(Path dir, RunInput input, boolean skipTime) throws Exception {
    try (TestWorkflowEnvironment env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setUseTimeskipping(skipTime).build())) {
      InMemoryRecorder recorder = new InMemoryRecorder();
      ScriptedHttp http = new ScriptedHttp(0);
      recorder.firstFailure.thenRun(() -> http.slowAnswer.complete(null));
      Worker automation = env.newWorker(TaskQueues.AUTOMATION);
      automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
      automation.registerActivitiesImplementations(recorder, http);
      env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder);
      env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(http);
      env.start();
      WorkflowClient client = env.getWorkflowClient();
      String workflowId = AutomationRunWorkflow.workflowId(input.runId());
      client
          .newWorkflowStub(
              AutomationRunWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setTaskQueue(TaskQueues.AUTOMATION)
                  .setWorkflowId(workflowId)
                  .build())
          .run(input);
      Files.writeString(
          dir.resolve(input.runId() + ".json"), client.fetchHistory(workflowId).toJson(true));
    }
  }
}
