package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunMove;
import com.crmflow.workflow.contract.RunMoveResult;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.node.FlowGoal;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A flow's goal in the interpreter, on Temporal's test environment: the goal's event ends a run
 * that waits in a delay at once, completed, with its exit; a contact that meets the goal when the
 * run reaches its next node ends the run there; a run of a flow without a goal never asks.
 */
@Timeout(60)
class GoalTest {

  static final Map<String, Object> CUSTOMER =
      Map.of("field", "{{contact.lifecycle_stage}}", "operator", "equals", "value", "customer");

  private TestWorkflowEnvironment env;
  private final InMemoryRecorder recorder = new InMemoryRecorder();
  private final InMemoryRecordWatches watches = new InMemoryRecordWatches();
  private final ScriptedHttp http = new ScriptedHttp(0);

  @BeforeEach
  void setUp() {
    env = WorkflowTestEnvironments.newInstance();
    Worker automation = env.newWorker(TaskQueues.AUTOMATION);
    automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
    automation.registerActivitiesImplementations(recorder, http, watches);
    env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder, watches);
    env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(http);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  /** webhook → wait 3 days → call, for contact c-1, started as on the embedded defaults. */
  static RunInput input(String runId, Canvas canvas) {
    return RunInputBuilder.run(runId, canvas)
        .payload(Map.of("id", 7, "contact_id", "c-1"))
        .embedded()
        .startedWithChanges(InterpreterChanges.CHANGES)
        .build();
  }

  private void start(String runId, Canvas canvas) {
    WorkflowClient.start(
        env.getWorkflowClient()
                .newWorkflowStub(
                    AutomationRunWorkflow.class,
                    WorkflowOptions.newBuilder()
                        .setTaskQueue(TaskQueues.AUTOMATION)
                        .setWorkflowId(AutomationRunWorkflow.workflowId(runId))
                        .build())
            ::run,
        input(runId, canvas));
  }

  /** The event api-server routes to a run whose contact met its goal. */
  static RecordEvent goalEvent(String runId) {
    return new RecordEvent(
        runId,
        FlowGoal.WATCHER,
        12,
        "5a0c0e1f-0000-4000-8000-000000000012",
        Map.of(
            "event",
            "contact.updated",
            "data",
            Map.of("contact_id", "c-1", "lifecycle_stage", "customer")));
  }

  private AutomationRunWorkflow running(String runId) {
    return env.getWorkflowClient()
        .newWorkflowStub(AutomationRunWorkflow.class, AutomationRunWorkflow.workflowId(runId));
  }

  private RunResult result(String runId) {
    return WorkflowStub.fromTyped(running(runId)).getResult(RunResult.class);
  }

  private Optional<NodeLogEntry> entry(String runId, String nodeId) {
    return recorder.log(runId).stream().filter(e -> e.nodeId().equals(nodeId)).findFirst();
  }

  private void replays(String runId) throws Exception {
    WorkflowReplayer.replayWorkflowExecution(
        env.getWorkflowClient().fetchHistory(AutomationRunWorkflow.workflowId(runId)),
        AutomationRunWorkflowImpl.class);
  }

  /**
   * The goal met after a move was taken, before the waiting branch stopped for it (its wait_until
   * still entering its watch, across workflow tasks): the run ends at its goal and the move says it
   * did not move the run, so its record keeps its version and the move does not count it.
   */
  @Test
  void aGoalMetWhileTheRunMovesEndsItUnmoved() throws Exception {
    Canvas reply = replyWithAGoal();
    watches.answer = new CompletableFuture<>();
    start("moving", reply);

    WorkflowUpdateHandle<RunMoveResult> move =
        takeTheMoveThenTheGoal(env.getWorkflowClient(), watches, "moving");

    assertThat(move.getResultAsync().get(20, TimeUnit.SECONDS).outcome())
        .isEqualTo(RunMoveResult.NOT_MOVED);
    assertThat(result("moving")).isEqualTo(new RunResult(RunResult.COMPLETED, null));
    assertThat(recorder.exits)
        .containsEntry("moving", Map.of("reason", "goal", "at_node", "reply"));
    assertThat(recorder.moves).doesNotContainKey("moving");
    replays("moving");
  }

  /**
   * webhook → wait_until a reply (3 days) → on timeout a call, with the goal "the contact is a
   * customer".
   */
  static Canvas replyWithAGoal() {
    return new Canvas(
        List.of(
            Canvases.node("hook", "webhook_trigger", Map.of()),
            Canvases.node(
                "reply",
                "wait_until",
                Map.of("eventType", "conversation.message_received", "timeoutDays", 3)),
            Canvases.node(
                "late",
                "http_request",
                Map.of("method", "POST", "url", "https://example.com/late"))),
        List.of(Canvases.edge("hook", "reply"), Canvases.branch("reply", "late", "timeout")),
        CUSTOMER);
  }

  /**
   * With the run's wait_until entering its watch (held by {@code watches.answer}), a move to
   * version 2 is taken, then the goal's event, each in a workflow task of its own across the
   * watch's heartbeats; then the watch answers.
   *
   * @return the move, taken
   */
  static WorkflowUpdateHandle<RunMoveResult> takeTheMoveThenTheGoal(
      WorkflowClient client, InMemoryRecordWatches watches, String runId) throws Exception {
    watches.entered(runId + "/reply").get(20, TimeUnit.SECONDS);
    AutomationRunWorkflow run =
        client.newWorkflowStub(
            AutomationRunWorkflow.class, AutomationRunWorkflow.workflowId(runId));
    WorkflowUpdateHandle<RunMoveResult> move =
        WorkflowStub.fromTyped(run)
            .startUpdate(
                AutomationRunWorkflow.MOVE,
                WorkflowUpdateStage.ACCEPTED,
                RunMoveResult.class,
                new RunMove("move-1", 2, replyWithAGoal(), Map.of(), false, "key-1"));
    run.recordEvent(goalEvent(runId));
    await()
        .atMost(Duration.ofSeconds(40))
        .until(() -> workflowTaskCompletedAfterTheSignal(client, runId));
    watches.answer.complete(null);
    return move;
  }

  /**
   * Whether a workflow task completed after the run's first signal: the signal was taken (while a
   * local activity runs, across the task's heartbeats).
   */
  private static boolean workflowTaskCompletedAfterTheSignal(WorkflowClient client, String runId) {
    boolean signalled = false;
    for (HistoryEvent event :
        client.fetchHistory(AutomationRunWorkflow.workflowId(runId)).getEvents()) {
      signalled |= event.hasWorkflowExecutionSignaledEventAttributes();
      if (signalled && event.hasWorkflowTaskCompletedEventAttributes()) {
        return true;
      }
    }
    return false;
  }

  @Test
  void theGoalsEventEndsARunWaitingInADelayCompletedWithItsExit() throws Exception {
    start("met", Canvases.threeDayWait().withGoal(CUSTOMER));
    await().atMost(Duration.ofSeconds(20)).until(() -> entry("met", "wait").isPresent());
    assertThat(watches.goalChecks)
        .as("checked once, before the delay")
        .containsExactly("tenant/c-1");

    running("met").recordEvent(goalEvent("met"));

    assertThat(result("met")).isEqualTo(new RunResult(RunResult.COMPLETED, null));
    assertThat(recorder.exits).containsEntry("met", Map.of("reason", "goal", "at_node", "wait"));
    NodeLogEntry delay = entry("met", "wait").orElseThrow();
    assertThat(delay.status()).isEqualTo(RunResult.SKIPPED);
    assertThat(delay.output()).isEqualTo(Map.of("skipped", FlowGoal.MET));
    assertThat(entry("met", "call")).isEmpty();
    assertThat(http.calls).isEmpty();
    replays("met");
  }

  @Test
  void aContactMeetingTheGoalWhenTheRunReachesItsNextNodeEndsTheRunThere() throws Exception {
    watches.meetingGoals.add("c-1");

    start("early", Canvases.threeDayWait().withGoal(CUSTOMER));

    assertThat(result("early").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(recorder.exits).containsEntry("early", Map.of("reason", "goal", "at_node", "wait"));
    assertThat(entry("early", "wait").orElseThrow().output())
        .isEqualTo(Map.of("skipped", FlowGoal.MET));
    assertThat(entry("early", "call")).isEmpty();
    replays("early");
  }

  @Test
  void aRunWithoutAGoalNeverAsksAndRecordsNoMarker() throws Exception {
    start("plain", Canvases.threeDayWait());
    await().atMost(Duration.ofSeconds(20)).until(() -> entry("plain", "wait").isPresent());

    env.sleep(Duration.ofDays(4));

    assertThat(result("plain").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(watches.goalChecks).isEmpty();
    assertThat(recorder.exits).isEmpty();
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/7");
    assertThat(
            env.getWorkflowClient()
                .fetchHistory(AutomationRunWorkflow.workflowId("plain"))
                .toJson(true))
        .doesNotContain("\"goal\"");
    replays("plain");
  }
}
