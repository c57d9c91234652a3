package com.crmflow.workflow.run;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.canvas.Canvas;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Records the histories that {@link HistoryReplayTest} replays. Run it when the interpreter's
 * behaviour changes on purpose (behind a {@code Workflow.getVersion} guard), and commit the new
 * files next to the old ones under a new prefix; never rewrite the old ones. Unprefixed files are
 * version 0 (one recording activity per entry); {@code batched-} files are version 1 of {@value
 * AutomationRunWorkflowImpl#BATCHED_RECORDING}; {@code local-} files are runs with {@link
 * RunInput#localActivities}, {@link RunInput#inlineChains} and {@link RunInput#triggerLogged} (as
 * api-server starts a trigger's runs on its embedded defaults); {@code resumed-} files are runs
 * given a {@link RunResume} (a run whose workflow an embedded server's restart lost). It writes
 * {@code local-failure-cuts-delay} today (version 1 of {@value
 * AutomationRunWorkflowImpl#FAILURE_CUTS_DELAYS}; the {@code resumed-} set came before it):
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
    // a branch fails while the other waits a day: version 1 of FAILURE_CUTS_DELAYS ends the run
    record(
        target,
        "local-failure-cuts-delay",
        Canvases.failureBesideADelay(),
        Map.of("source", "crm"),
        0,
        null);
  }

  private static void record(
      Path dir,
      String name,
      Canvas canvas,
      Map<String, Object> payload,
      int failures,
      Function<Instant, RunResume> resumeAt)
      throws Exception {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      InMemoryRecorder recorder = new InMemoryRecorder();
      ScriptedHttp http = new ScriptedHttp(failures);
      Worker automation = env.newWorker(TaskQueues.AUTOMATION);
      automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
      automation.registerActivitiesImplementations(recorder, http);
      env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder);
      env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(http);
      env.start();
      WorkflowClient client = env.getWorkflowClient();
      String workflowId = AutomationRunWorkflow.workflowId(name);
      client
          .newWorkflowStub(
              AutomationRunWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setTaskQueue(TaskQueues.AUTOMATION)
                  .setWorkflowId(workflowId)
                  .build())
          .run(
              new RunInput(
                  "tenant",
                  "sequence",
                  name,
                  1,
                  canvas,
                  "hook",
                  payload,
                  null,
                  Map.of(),
                  List.of(),
                  true,
                  true,
                  true,
                  resumeAt == null
                      ? null
                      : resumeAt.apply(Instant.ofEpochMilli(env.currentTimeMillis()))));
      Files.writeString(dir.resolve(name + ".json"), client.fetchHistory(workflowId).toJson(true));
    }
  }
}
