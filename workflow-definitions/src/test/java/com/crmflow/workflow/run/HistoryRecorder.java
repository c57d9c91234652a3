package com.crmflow.workflow.run;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunResume;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Records the histories that {@link HistoryReplayTest} replays. Run it when the interpreter's
 * behaviour changes on purpose (behind a {@code Workflow.getVersion} guard), and commit its files
 * next to the recorded ones under a prefix of their own; never rewrite recorded ones. Unprefixed
 * files are version 0 (one recording activity per entry); {@code batched-} files are version 1 of
 * {@value InterpreterChanges#BATCHED_RECORDING}; {@code local-} files are runs with {@link
 * RunInput#localActivities}, {@link RunInput#inlineChains} and {@link RunInput#triggerLogged} (as
 * api-server starts a trigger's runs on its embedded defaults); {@code resumed-} files are runs
 * given a {@link RunResume} (a run whose workflow an embedded server's restart lost); {@code
 * large-} files, gzipped (they carry outputs of up to 1.7 MB, mostly one repeated letter), are runs
 * near Temporal's size limits; {@code remote-} files are other runs as the distributed profile
 * starts them. It writes six: one for each version that keeps a run under those limits ({@value
 * InterpreterChanges#ANSWERS_PER_TASK}, {@value InterpreterChanges#INPUTS_PER_TASK}, {@value
 * InterpreterChanges#SIZED_RECORDING}, {@value InterpreterChanges#ACTIVITY_INPUTS_FIT}, {@value
 * InterpreterChanges#RECORDINGS_PER_TASK}) and one of {@value InterpreterChanges#NODE_INPUT}; the
 * others came before them:
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
    // embedded defaults: the fourth of six 900 kB answers finds no room in its task and goes
    // through the integrations queue
    record(
        target,
        sized("large-local-answers-per-task", Canvases.chainOfLargeCalls(6), Map.of(), true),
        false);
    // distributed: three 1.4 MB requests in parallel branches, the third waiting for the next task
    record(
        target,
        sized(
            "large-remote-inputs-per-task",
            Canvases.parallelPosts(3, "{{trigger.big}}"),
            Map.of("big", "q".repeat(1_400_000)),
            false),
        false);
    // distributed: a 1.7 MB merge logged as a note of its size, the batches cut to 1 MiB
    record(
        target,
        sized(
            "large-remote-sized-recording",
            Canvases.largeOutputs(),
            Map.of("note", "y".repeat(800_000)),
            false),
        true);
    // distributed: a 1.7 MB request fails its node
    record(
        target,
        sized(
            "large-remote-activity-inputs-fit",
            Canvases.parallelPosts(1, "{{trigger.big}}"),
            Map.of("big", "z".repeat(1_700_000)),
            false),
        false);
    // distributed: six branches hand 700 kB entries to the recorder, two waiting for the next task
    record(
        target,
        sized(
            "large-remote-recordings-per-task",
            Canvases.parallelCopiesThenWaits(6),
            Map.of("big", "c".repeat(700_000)),
            false),
        true);
    // distributed: the entries carry what each node ran with, from the version's marker on
    record(
        target,
        sized("remote-node-input", Canvases.callWaitCall(), Map.of("plan", "pro"), false),
        true);
  }

  /**
   * A trigger's run with a large payload or large outputs: on the embedded defaults ({@code local})
   * or as the distributed profile starts it (recorder and http_request through their queues).
   */
  private static RunInput sized(
      String name, Canvas canvas, Map<String, Object> payload, boolean local) {
    return RunInputBuilder.run(name, canvas)
        .payload(payload)
        .localActivities(local)
        .inlineChains(true)
        .build();
  }

  /**
   * Runs the input to its end. In real time unless {@code skipTime} (a run that waits on a delay to
   * its end): with time skipping the test server may skip ahead while a local activity runs, which
   * it cannot see. A call to a "/slow" URL is answered once a failure is recorded.
   */
  static void record(Path dir, RunInput input, boolean skipTime) throws Exception {
    try (TestWorkflowEnvironment env =
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder().setUseTimeskipping(skipTime))) {
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
      String history = client.fetchHistory(workflowId).toJson(true);
      if (input.runId().startsWith("large-")) {
        try (Writer out =
            new OutputStreamWriter(
                new GZIPOutputStream(
                    Files.newOutputStream(dir.resolve(input.runId() + ".json.gz"))),
                StandardCharsets.UTF_8)) {
          out.write(history);
        }
      } else {
        Files.writeString(dir.resolve(input.runId() + ".json"), history);
      }
    }
  }
}
