package com.crmflow.workflow.run;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.canvas.Canvas;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Records the histories that {@link HistoryReplayTest} replays. Run it when the interpreter's
 * behaviour changes on purpose (behind a {@code Workflow.getVersion} guard), and commit the new
 * files next to the old ones under a new prefix; never rewrite the old ones. Unprefixed files are
 * version 0 (one recording activity per entry); {@code batched-} files are version 1 of {@value
 * AutomationRunWorkflowImpl#BATCHED_RECORDING}; {@code local-} files are runs with {@link
 * RunInput#localActivities}, {@link RunInput#inlineChains} and {@link RunInput#triggerLogged} (as
 * api-server starts a trigger's runs on its embedded defaults). It writes the {@code local-} set
 * today:
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
    String prefix = "local-";
    record(
        target,
        prefix + "every-built-node-type",
        Canvases.everyBuiltNodeType(),
        Map.of("source", "crm"),
        0);
    record(target, prefix + "three-day-wait", Canvases.threeDayWait(), Map.of("id", "abc"), 0);
    record(target, prefix + "retried-activity", Canvases.threeDayWait(), Map.of("id", "retry"), 2);
  }

  private static void record(
      Path dir, String name, Canvas canvas, Map<String, Object> payload, int failures)
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
                  null));
      Files.writeString(dir.resolve(name + ".json"), client.fetchHistory(workflowId).toJson(true));
    }
  }
}
