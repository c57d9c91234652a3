package com.crmflow.workflow.run;

import static org.awaitility.Awaitility.await;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunControl;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Records the histories of the journey's building blocks for {@link HistoryReplayTest}, each a run
 * as api-server starts a trigger's run on its embedded defaults ({@link RunInputBuilder#embedded},
 * with {@link InterpreterChanges#CHANGES}):
 *
 * <ul>
 *   <li>{@code local-wait-until-met.json}: a wait_until met by a reply signalled to the run.
 *   <li>{@code local-failed-run-completes.json}: a run whose call is refused (404), recorded before
 *       a failed run failed its workflow: the workflow completed with the result {@code failed}.
 *   <li>{@code local-failed-run-fails.json}: the same run with {@value
 *       InterpreterChanges#FAILED_RUN_FAILS_WORKFLOW}: its workflow fails, naming the node.
 *   <li>{@code local-delay-in-window.json}: an hour's delay that ends inside 09:00–10:00 in the
 *       contact's zone (Asia/Tokyo, looked up by the {@code window_zone} activity).
 *   <li>{@code local-split.json}: a 50/50 split and the call on the branch the run drew.
 *   <li>{@code local-held-run.json}: a run held by its flow's pause while it waits 3 days, its
 *       delay over while held, released and its call made.
 *   <li>{@code local-ended-run.json}: a run asked to end by its flow's pause while it waits 3 days:
 *       its delay cut short, the run cancelled with the reason.
 *   <li>{@code local-goal-event-before-goals.json}: recorded before goals existed, a run waiting 3
 *       days that is routed its goal's event ({@code (goal)}): it waits on and calls, as every run
 *       without {@value InterpreterChanges#GOAL} does.
 *   <li>{@code local-goal-met-in-delay.json}: a run of a flow with a goal, routed its goal's event
 *       while it waits 3 days: its delay cut short, the run completed at the goal.
 *   <li>{@code local-goal-met-before-node.json}: a run of a flow with a goal whose contact meets it
 *       when the run reaches its delay (the {@code goal_holds} local activity): it ends there.
 *   <li>{@code local-moved-run.json}: a run started before {@value InterpreterChanges#RUN_MOVE}
 *       (its input does not list it), moved to version 2 of its flow a day into its 3 days' wait:
 *       its delay's node renamed and mapped, its deadline kept, and version 2's call made once.
 *   <li>{@code local-held-moved-run.json}: a run held by its flow's pause before its call (its 3
 *       days' delay over while held), moved to version 2 of its flow while it holds ({@value
 *       InterpreterChanges#HELD_MOVE}), then released: version 2's call made once.
 *   <li>{@code local-moved-twice-run.json}: recorded before moved waits kept their start, a run
 *       moved a day into its 3 days' wait to version 2 (5 days, its deadline kept), and a day later
 *       to version 3 (2 days) with {@code recompute_delays}: measured from the first move, so it
 *       woke at day 3.
 *   <li>{@code local-held-while-waiting-moved-run.json}: recorded before moved waits kept their
 *       start, a run held by its flow's pause while it waits 3 days, moved to version 2 a day in,
 *       and released a day later: the moved delay held before it started again.
 *   <li>{@code local-window-moved-twice-run.json}: recorded before moved waits kept their start, a
 *       delay with a send window moved to version 2 (2 hours, the node renamed and mapped) and 10
 *       minutes later to version 3 (30 hours): its deadline lost at the second move, the window of
 *       the day after taken.
 * </ul>
 *
 * <p>{@code local-goal-during-move-run.json}: recorded before a goal ended a move, a run of a flow
 * with a goal whose wait_until is still entering its watch when a move is taken and then its goal's
 * event comes: the run ended at its goal, and the move was recorded as made. The {@code
 * -goal-ends-move} file is the same run with {@value InterpreterChanges#GOAL_ENDS_MOVE}: not moved.
 *
 * <p>The {@code -waits-go-on} files are the last three recorded again with {@value
 * InterpreterChanges#MOVED_WAITS_GO_ON}: the second move wakes the recomputed delay at once; the
 * held run waits on in its moved delay and holds before its call; the window's deadline is kept.
 *
 * <p>The {@code -timer-read} files are {@code local-moved-run}, {@code local-wait-until-met} and
 * {@code local-held-moved-run} recorded again once the wait nodes' timers mark their cancellation
 * read (no command changed; the order of a local activity's marker beside a timer's start follows
 * the local activity's timing, in either recording).
 *
 * <p>Run like {@link HistoryRecorder}, with this class as the main class and the file's name as the
 * second argument; it writes that one file.
 */
public final class JourneyHistoryRecorder {

  private JourneyHistoryRecorder() {}

  public static void main(String[] args) throws Exception {
    Path target =
        Path.of(args.length > 0 ? args[0] : "workflow-definitions/src/test/resources/histories");
    String name = args[1];
    Files.createDirectories(target);
    // a moved-wait history recorded again with the change: the same steps
    String scenario = name.replace("-waits-go-on", "").replace("-goal-ends-move", "");
    switch (scenario) {
      case "local-wait-until-met" ->
          record(
              target,
              embedded(name, Canvases.waitForAReply()),
              (env, client, watches, recorder) ->
                  GoalTest.takeTheMoveThenTheGoal(client, watches, name));
      default -> throw new IllegalArgumentException("no history named " + name);
    }
  }

  /**
   * The run, held by its flow's pause while its delay waits, once its 3 days are over and it holds
   * before its call (the call's held entry is recorded).
   */
  private static AutomationRunWorkflow heldBeforeTheCall(
      TestWorkflowEnvironment env, WorkflowClient client, InMemoryRecorder recorder, String runId) {
    AutomationRunWorkflow run = awaitDelay(client, recorder, runId);
    run.control(new RunControl(RunControl.HOLD, "flow paused", 1));
    env.sleep(Duration.ofDays(4));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> recorder.log(runId).stream().anyMatch(e -> e.nodeId().equals("call")));
    return run;
  }

  /** The run, once its delay waits (its entry is recorded). */
  private static AutomationRunWorkflow awaitDelay(
      WorkflowClient client, InMemoryRecorder recorder, String runId) {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> recorder.log(runId).stream().anyMatch(e -> e.nodeId().equals("wait")));
    return client.newWorkflowStub(
        AutomationRunWorkflow.class, AutomationRunWorkflow.workflowId(runId));
  }

  /** A run of the canvas started as the trigger bench's (its payload's id is 7). */
  private static RunInput movable(String runId, Canvas canvas) {
    return RunInputBuilder.run(runId, canvas)
        .payload(Map.of("id", 7))
        .embedded()
        .startedWithChanges(InterpreterChanges.CHANGES)
        .build();
  }

  private static RunInput embedded(String runId, Canvas canvas) {
    return RunInputBuilder.run(runId, canvas)
        .payload(Map.of("contact_id", "c-1"))
        .embedded()
        .startedWithChanges(InterpreterChanges.CHANGES)
        .build();
  }

  /** What the recording does while the run goes on: signal it, say. */
  interface During {
    void accept(
        TestWorkflowEnvironment env,
        WorkflowClient client,
        InMemoryRecordWatches watches,
        InMemoryRecorder recorder)
        throws Exception;
  }

  /** Runs the input to its end, doing {@code during} meanwhile, and writes its history. */
  private static void record(Path dir, RunInput input, During during) throws Exception {
    record(dir, input, watches -> {}, during);
  }

  /**
   * Runs the input to its end, the record index set up first, doing {@code during} meanwhile, and
   * writes its history.
   */
  private static void record(
      Path dir,
      RunInput input,
      java.util.function.Consumer<InMemoryRecordWatches> setUp,
      During during)
      throws Exception {
    try (TestWorkflowEnvironment env =
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder().setUseTimeskipping(true))) {
      InMemoryRecorder recorder = new InMemoryRecorder();
      InMemoryRecordWatches watches = new InMemoryRecordWatches();
      setUp.accept(watches);
      ScriptedHttp http = new ScriptedHttp(0);
      Worker automation = env.newWorker(TaskQueues.AUTOMATION);
      automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
      SendWindowWaitTest.TokyoContacts zones = new SendWindowWaitTest.TokyoContacts();
      automation.registerActivitiesImplementations(recorder, http, watches, zones);
      env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder, watches, zones);
      env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(http);
      env.start();
      WorkflowClient client = env.getWorkflowClient();
      String workflowId = AutomationRunWorkflow.workflowId(input.runId());
      WorkflowClient.start(
          client.newWorkflowStub(
                  AutomationRunWorkflow.class,
                  WorkflowOptions.newBuilder()
                      .setTaskQueue(TaskQueues.AUTOMATION)
                      .setWorkflowId(workflowId)
                      .build())
              ::run,
          input);
      during.accept(env, client, watches, recorder);
      try {
        WorkflowStub.fromTyped(client.newWorkflowStub(AutomationRunWorkflow.class, workflowId))
            .getResult(Object.class);
      } catch (RuntimeException failed) {
        // a failed run's history is recorded as it is
      }
      Files.writeString(
          dir.resolve(input.runId() + ".json"), client.fetchHistory(workflowId).toJson(true));
    }
  }
}
