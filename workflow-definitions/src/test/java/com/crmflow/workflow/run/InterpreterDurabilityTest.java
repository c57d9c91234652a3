package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import com.crmflow.workflow.history.HistoryPayloads;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The interpreter on Temporal's test environment, with time skipping. Its cases run side by side,
 * each on an environment of its own.
 */
@Timeout(60)
class InterpreterDurabilityTest {

  private TestWorkflowEnvironment env;
  private InMemoryRecorder recorder;

  @BeforeEach
  void setUp() {
    env = WorkflowTestEnvironments.newInstance();
    recorder = new InMemoryRecorder();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  /**
   * The workers of both deployments: the recorder and http_request on their own queues, and (for
   * runs with local activities, the embedded defaults) also on the workflow worker.
   */
  private static void register(
      WorkerFactory factory, InMemoryRecorder recorder, ScriptedHttp http) {
    Worker automation = factory.newWorker(TaskQueues.AUTOMATION);
    automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
    automation.registerActivitiesImplementations(recorder, http);
    factory.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder);
    factory.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(http);
  }

  /** Starts the environment's workers with an http_request that fails its first calls. */
  private ScriptedHttp startWorkers(int failures) {
    ScriptedHttp http = new ScriptedHttp(failures);
    register(env.getWorkerFactory(), recorder, http);
    env.start();
    return http;
  }

  /** When a delay waking this long from the test server's now wakes, as the log writes it. */
  private String untilIn(Duration left) {
    return NodeLogEntry.timestamp(Instant.ofEpochMilli(env.currentTimeMillis()).plus(left));
  }

  /** How runs are started: embedded (local, inline), distributed, and without inline chains. */
  private static final String PLACEMENTS =
      """
      local, inline
      remote, inline
      remote, threads
      """;

  private static RunInput input(
      String runId, Canvas canvas, Map<String, Object> payload, String activities, String chains) {
    return RunInputBuilder.run(runId, canvas)
        .payload(payload)
        .localActivities(activities.equals("local"))
        .inlineChains(chains.equals("inline"))
        .build();
  }

  private AutomationRunWorkflow stub(WorkflowClient client, String runId) {
    return client.newWorkflowStub(
        AutomationRunWorkflow.class,
        WorkflowOptions.newBuilder()
            .setTaskQueue(TaskQueues.AUTOMATION)
            .setWorkflowId(AutomationRunWorkflow.workflowId(runId))
            .build());
  }

  /**
   * A worker that comes up mid-wait rebuilds the run from its history (replay) and goes on. The
   * test server of this SDK cannot skip time after a worker factory is shut down (sdk-java #2670),
   * so the hand-over is proven by replaying the mid-wait history on a fresh worker, and restarts of
   * whole worker and api-server processes by api-server's ComposeStackTest (where Docker exists).
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aThreeDayWaitReplaysOnAFreshWorkerAndCompletesOnce(String activities, String chains)
      throws Exception {
    ScriptedHttp http = startWorkers(0);
    WorkflowClient client = env.getWorkflowClient();
    WorkflowExecution execution =
        WorkflowClient.start(
            stub(client, "r1")::run,
            input("r1", Canvases.threeDayWait(), Map.of("id", "abc"), activities, chains));

    env.sleep(Duration.ofHours(1));
    assertThat(recorder.log("r1"))
        .extracting(NodeLogEntry::status)
        .containsExactly("completed", "running");
    WorkflowReplayer.replayWorkflowExecution(
        client.fetchHistory(execution.getWorkflowId()), AutomationRunWorkflowImpl.class);

    RunResult result =
        client
            .newUntypedWorkflowStub(execution.getWorkflowId())
            .getResult(30, java.util.concurrent.TimeUnit.SECONDS, RunResult.class);
    assertThat(execution.getWorkflowId()).isEqualTo("run-r1");
    assertThat(result.status()).isEqualTo("completed");
    assertThat(http.calls).hasSize(1);
    assertThat(http.calls.get(0).url()).isEqualTo("https://example.com/abc");
    assertThat(http.calls.get(0).idempotencyKey()).isEqualTo("r1:call");
    assertThat(recorder.log("r1"))
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("hook", "wait", "call");
    assertThat(recorder.log("r1")).extracting(NodeLogEntry::status).containsOnly("completed");
    assertThat(recorder.finished).containsEntry("r1", "completed");
    WorkflowReplayer.replayWorkflowExecution(
        client.fetchHistory(execution.getWorkflowId()), AutomationRunWorkflowImpl.class);
  }

  /** The input with where a lost workflow's run stood (as api-server reads it from the log). */
  private static RunInput resumed(RunInput input, RunResume resume) {
    return RunInputBuilder.from(input).resume(resume).build();
  }

  /** Runs callWaitCall as a resumed run and waits for its result. */
  private RunResult runCallWaitCallResumed(
      String runId, RunResume resume, String activities, String chains) {
    RunInput input = input(runId, Canvases.callWaitCall(), Map.of(), activities, chains);
    return RunOutcomes.of(() -> stub(env.getWorkflowClient(), runId).run(resumed(input, resume)));
  }

  private static NodeLogEntry logged(int seq, String nodeId, String type, String status) {
    return new NodeLogEntry(
        seq, nodeId, type, status, "2026-11-20T10:00:00.000Z", null, Map.of(), null);
  }

  /**
   * A run whose workflow the embedded server lost on a restart goes on where its log says it stood:
   * the call made before is not made again (its logged output is the variable), and the 1-day delay
   * waits only the 5 hours it had left, under its own log entry.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aResumedRunWaitsWhatWasLeftOfItsDelayAndRunsNothingTwice(String activities, String chains) {
    ScriptedHttp http = startWorkers(0);
    String until = untilIn(Duration.ofHours(5));
    recorder.recordNodes(
        "r2",
        List.of(
            logged(1, "hook", "webhook_trigger", "completed"),
            logged(2, "first", "http_request", "completed"),
            logged(3, "wait", "delay", "running")));
    RunResume resume =
        new RunResume(
            Map.of(
                "hook",
                new RunResume.NodeOutcome("completed", Map.of(), null),
                "first",
                new RunResume.NodeOutcome(
                    "completed", Map.of("statusCode", 200, "body", Map.of("id", 42)), null)),
            Map.of("wait", new RunResume.WaitingDelay(3, until)),
            3);

    RunResult result = runCallWaitCallResumed("r2", resume, activities, chains);

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    // the timer in the history, not the test server's clock: an idle time-skipping server may
    // jump its clock once the run is over
    assertThat(
            env
                .getWorkflowClient()
                .fetchHistory(AutomationRunWorkflow.workflowId("r2"))
                .getEvents()
                .stream()
                .filter(HistoryEvent::hasTimerStartedEventAttributes)
                .map(e -> e.getTimerStartedEventAttributes().getStartToFireTimeout())
                .map(d -> Duration.ofSeconds(d.getSeconds(), d.getNanos())))
        .as("the 5 hours left, not the whole day")
        .singleElement()
        .satisfies(
            timer ->
                assertThat(timer)
                    .isBetween(Duration.ofHours(5).minusMinutes(1), Duration.ofHours(5)));
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/b/42");
    assertThat(http.calls.get(0).idempotencyKey()).isEqualTo("r2:second");
    assertThat(recorder.log("r2"))
        .extracting(e -> e.seq() + " " + e.nodeId() + " " + e.status())
        .containsExactly(
            "1 hook completed", "2 first completed", "3 wait completed", "4 second completed");
    assertThat(recorder.finished).containsEntry("r2", "completed");
  }

  /**
   * Resumed mid-graph: the condition's logged branch is followed again (the false branch stays
   * unrun), the join after the finished transforms and the waiting delay runs once, and its body
   * reads the merge's logged output.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aResumedRunFollowsItsLoggedBranchAndJoinsTheWaitingDelay(String activities, String chains) {
    ScriptedHttp http = startWorkers(0);
    String until = untilIn(Duration.ofMinutes(30));
    List<String> finished = List.of("hook", "fetch", "check", "filter", "map", "merge");
    List<String> types =
        List.of(
            "webhook_trigger",
            "http_request",
            "condition",
            "data_transform",
            "data_transform",
            "data_transform");
    Map<String, Map<String, Object>> outputs =
        Map.of(
            "fetch", Map.of("statusCode", 200),
            "check", Map.of("result", true),
            "merge", Map.of("count", 9));
    Map<String, RunResume.NodeOutcome> done = new HashMap<>();
    List<NodeLogEntry> log = new ArrayList<>();
    for (int i = 0; i < finished.size(); i++) {
      String id = finished.get(i);
      done.put(
          id,
          new RunResume.NodeOutcome(
              "completed", outputs.getOrDefault(id, Map.of("count", 1)), null));
      log.add(logged(i + 1, id, types.get(i), "completed"));
    }
    log.add(logged(7, "wait", "delay", "running"));
    recorder.recordNodes("r5", log);
    RunResume resume = new RunResume(done, Map.of("wait", new RunResume.WaitingDelay(7, until)), 7);

    RunInput input = input("r5", Canvases.everyBuiltNodeType(), Map.of(), activities, chains);
    RunResult result = stub(env.getWorkflowClient(), "r5").run(resumed(input, resume));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/done");
    assertThat(http.calls.get(0).body()).isEqualTo("{\"n\": \"9\"}");
    assertThat(recorder.log("r5"))
        .extracting(e -> e.seq() + " " + e.nodeId() + " " + e.status())
        .endsWith("7 wait completed", "8 notify completed")
        .hasSize(8);
  }

  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aResumedRunWhoseLogShowsAFailedNodeFailsWithoutRunningMore(
      String activities, String chains) {
    ScriptedHttp http = startWorkers(0);
    RunResume resume =
        new RunResume(
            Map.of(
                "hook",
                new RunResume.NodeOutcome("completed", Map.of(), null),
                "first",
                new RunResume.NodeOutcome("failed", null, "HTTP 500 from example.com")),
            Map.of(),
            2);

    RunResult result = runCallWaitCallResumed("r3", resume, activities, chains);

    assertThat(result.status()).isEqualTo("failed");
    assertThat(result.error())
        .isEqualTo("node first (http_request) failed: HTTP 500 from example.com");
    assertThat(http.calls).isEmpty();
    assertThat(recorder.finished).containsEntry("r3", "failed");
  }

  @Execution(ExecutionMode.CONCURRENT)
  @Test
  void aTriggerLoggedWithTheRunIsNotRecordedAgain() {
    startWorkers(0);
    Canvas canvas = Canvases.hookThenCall();
    RunInput logged = RunInputBuilder.run("r4", canvas).embedded().build();

    RunResult result = stub(env.getWorkflowClient(), "r4").run(logged);

    assertThat(result.status()).isEqualTo("completed");
    // api-server wrote seq 1 (the trigger) with the run row; the workflow goes on from seq 2
    assertThat(recorder.log("r4")).extracting(NodeLogEntry::seq).containsExactly(2);
    assertThat(recorder.log("r4")).extracting(NodeLogEntry::nodeId).containsExactly("call");
    assertThat(recorder.finished).containsEntry("r4", "completed");
  }

  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void anActivityThatFailsTwiceThenSucceedsIsLoggedOnce(String activities, String chains) {
    ScriptedHttp http = startWorkers(2);
    Canvas canvas = Canvases.hookThenCall();
    RunResult result =
        stub(env.getWorkflowClient(), "r2").run(input("r2", canvas, Map.of(), activities, chains));

    assertThat(result.status()).isEqualTo("completed");
    assertThat(http.calls).hasSize(3);
    List<NodeLogEntry> log = recorder.log("r2");
    assertThat(log).hasSize(2);
    assertThat(log.get(1).status()).isEqualTo("completed");
    assertThat(log.get(1).output()).containsEntry("statusCode", 200);
  }

  /**
   * A run's end meets a database error for 13 s (a deadlock, then a lost connection): it is written
   * on a later attempt and the run completes, also as a local activity, whose unlimited retries the
   * SDK would otherwise read as none; there, the wait beyond 10 s between attempts is a durable
   * timer rather than a workflow task held open.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aRunEndWhoseWritesFailForAWhileIsWrittenOnALaterAttempt(String activities, String chains)
      throws Exception {
    EndFailing failingEnds = new EndFailing(7);
    recorder = failingEnds;
    startWorkers(0);
    Canvas canvas = Canvases.hookThenCall();

    RunResult result =
        stub(env.getWorkflowClient(), "r-end")
            .run(input("r-end", canvas, Map.of(), activities, chains));

    assertThat(result.status()).isEqualTo("completed");
    assertThat(failingEnds.endAttempts).isEqualTo(8);
    assertThat(recorder.finished).containsEntry("r-end", "completed");
    assertThat(recorder.log("r-end"))
        .extracting(NodeLogEntry::nodeId, NodeLogEntry::status)
        .containsExactly(tuple("hook", "completed"), tuple("call", "completed"));
    // 0.2 s to 6.4 s between the local attempts, then 12.8 s: past the 10 s threshold, a timer
    WorkflowExecutionHistory history =
        env.getWorkflowClient().fetchHistory(AutomationRunWorkflow.workflowId("r-end"));
    assertThat(history.getEvents())
        .filteredOn(HistoryEvent::hasTimerStartedEventAttributes)
        .hasSize(activities.equals("local") ? 1 : 0);
    // and the retries' markers and timer replay as they ran
    WorkflowReplayer.replayWorkflowExecution(history, AutomationRunWorkflowImpl.class);
  }

  /** A recorder whose first writes of a run's end fail, as a deadlocked transaction does. */
  private static final class EndFailing extends InMemoryRecorder {
    private final int failures;
    int endAttempts;

    EndFailing(int failures) {
      this.failures = failures;
    }

    @Override
    public synchronized void endRun(
        String runId,
        List<NodeLogEntry> entries,
        String status,
        String error,
        Map<String, Object> exit) {
      if (++endAttempts <= failures) {
        throw new IllegalStateException("deadlock detected (attempt " + endAttempts + ")");
      }
      super.endRun(runId, entries, status, error, exit);
    }
  }

  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aFailureEndsTheRunAtOnceAndCutsTheDelayBesideItShort(String activities, String chains) {
    // in real time: the test server skips time while a local activity runs (it cannot see it), so
    // with time skipping the day's timer could fire before the failing call's answer is seen
    env.close();
    env =
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder().setUseTimeskipping(false));
    startWorkers(0);
    long started = env.currentTimeMillis();

    RunResult result =
        RunOutcomes.of(
            () ->
                stub(env.getWorkflowClient(), "r5")
                    .run(
                        input("r5", Canvases.failureBesideADelay(), Map.of(), activities, chains)));

    assertThat(result.status()).isEqualTo("failed");
    assertThat(result.error()).isEqualTo("node bad (http_request) failed: HTTP 404 from peer");
    // the day's delay did not hold the failed run (without failure-cuts-delays this call waits a
    // day, and the class's 60 s timeout fails the test): no timer fired, hardly any time went by
    assertThat(env.currentTimeMillis() - started).isLessThan(Duration.ofHours(1).toMillis());
    assertThat(
            env.getWorkflowClient()
                .fetchHistory(AutomationRunWorkflow.workflowId("r5"))
                .getEvents())
        .noneMatch(HistoryEvent::hasTimerFiredEventAttributes);
    assertThat(recorder.finished).containsEntry("r5", "failed");
  }

  /**
   * A node in flight in another branch when the run fails finishes and is logged as it ended (it
   * may have acted), the node whose turn comes after it is logged as not started, and the delay is
   * cut: a retry finds every node the failure left unrun.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aFailureLetsTheNodesInFlightFinishAndLogsWhatItLeftUnrun(String activities, String chains)
      throws Exception {
    env.close(); // in real time, as in the test above
    env =
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder().setUseTimeskipping(false));
    ScriptedHttp http = startWorkers(0);
    WorkflowClient client = env.getWorkflowClient();
    WorkflowClient.start(
        stub(client, "r6")::run,
        input("r6", Canvases.failureBesideASlowCallAndADelay(), Map.of(), activities, chains));

    // the failed node is logged at once, and the run waits for the call still in flight
    assertThat(recorder.firstFailure.get(30, java.util.concurrent.TimeUnit.SECONDS).nodeId())
        .isEqualTo("bad");
    assertThat(recorder.finished).doesNotContainKey("r6");
    http.slowAnswer.complete(null);
    RunResult result =
        RunOutcomes.of(
            () ->
                client
                    .newUntypedWorkflowStub(AutomationRunWorkflow.workflowId("r6"))
                    .getResult(30, java.util.concurrent.TimeUnit.SECONDS, RunResult.class));

    assertThat(result.status()).isEqualTo("failed");
    assertThat(result.error()).isEqualTo("node bad (http_request) failed: HTTP 404 from peer");
    Map<String, NodeLogEntry> byNode = new HashMap<>();
    recorder.log("r6").forEach(entry -> byNode.put(entry.nodeId(), entry));
    assertThat(byNode).containsOnlyKeys("hook", "bad", "slow", "after", "wait");
    assertThat(byNode.get("slow").status()).isEqualTo("completed");
    assertThat(byNode.get("slow").output()).containsEntry("statusCode", 200);
    assertThat(byNode.get("after").status()).isEqualTo("skipped");
    assertThat(byNode.get("after").output())
        .containsEntry("skipped", RunResult.NOT_STARTED_FOR_FAILURE);
    assertThat(byNode.get("wait").status()).isEqualTo("skipped");
    assertThat(byNode.get("wait").output())
        .containsEntry("skipped", RunResult.CUT_BY_FAILURE)
        .containsKey("until"); // a retry's delay wakes then
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactlyInAnyOrder("https://example.com/refused", "https://example.com/slow");
    assertThat(recorder.finished).containsEntry("r6", "failed");
  }

  /**
   * A branch that ends while another waits on a day's delay has its entries written then, not when
   * the run ends: a running run shows them.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aBranchThatEndsBesideAWaitingDelayShowsItsEntriesAtOnce(String activities, String chains)
      throws Exception {
    startWorkers(0);
    WorkflowClient client = env.getWorkflowClient();
    WorkflowClient.start(
        stub(client, "r9")::run,
        input("r9", Canvases.callBesideADelay(), Map.of(), activities, chains));

    env.sleep(Duration.ofHours(1));
    Map<String, String> statusByNode = new HashMap<>();
    recorder.log("r9").forEach(entry -> statusByNode.put(entry.nodeId(), entry.status()));
    assertThat(statusByNode)
        .containsEntry("call", "completed")
        .containsEntry("wait", "running")
        .doesNotContainKey("tail");
    assertThat(recorder.finished).doesNotContainKey("r9");
    RunResult result =
        client
            .newUntypedWorkflowStub(AutomationRunWorkflow.workflowId("r9"))
            .getResult(30, java.util.concurrent.TimeUnit.SECONDS, RunResult.class);
    assertThat(result.status()).isEqualTo("completed");
    assertThat(recorder.log("r9")).extracting(NodeLogEntry::status).containsOnly("completed");
  }

  /**
   * A retry's delay that the failure cut short wakes when it would have woken in the failed run: in
   * 5 hours here, not 3 days; and at once when that time has passed.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aRetriedDelayWakesWhenItWouldHaveInTheFailedRun(String activities, String chains) {
    ScriptedHttp http = startWorkers(0);
    String inFiveHours = untilIn(Duration.ofHours(5));
    RunResult result =
        stub(env.getWorkflowClient(), "r7").run(retryOfWait("r7", inFiveHours, activities, chains));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    // the timer the workflow set, not the test server's clock after the run: with time skipping
    // the server may skip on to its next timer while an activity is on its way to a worker
    List<HistoryEvent> timers =
        env
            .getWorkflowClient()
            .fetchHistory(AutomationRunWorkflow.workflowId("r7"))
            .getEvents()
            .stream()
            .filter(HistoryEvent::hasTimerStartedEventAttributes)
            .toList();
    assertThat(timers).hasSize(1);
    com.google.protobuf.Duration fireIn =
        timers.get(0).getTimerStartedEventAttributes().getStartToFireTimeout();
    assertThat(Duration.ofSeconds(fireIn.getSeconds(), fireIn.getNanos()))
        .isBetween(Duration.ofHours(5).minusMinutes(1), Duration.ofHours(5));
    assertThat(recorder.log("r7").get(0).nodeId()).isEqualTo("wait");
    assertThat(recorder.log("r7").get(0).output().get("waitedSeconds"))
        .hasToString(String.valueOf(3 * 24 * 3600));
    assertThat(http.calls).hasSize(1);

    String anHourAgo = untilIn(Duration.ofHours(-1));
    RunResult overdue =
        stub(env.getWorkflowClient(), "r8").run(retryOfWait("r8", anHourAgo, activities, chains));
    assertThat(overdue.status()).isEqualTo("completed");
    assertThat(
            env.getWorkflowClient()
                .fetchHistory(AutomationRunWorkflow.workflowId("r8"))
                .getEvents())
        .noneMatch(HistoryEvent::hasTimerStartedEventAttributes);
    assertThat(http.calls).hasSize(2);
  }

  /** A retry of threeDayWait whose delay the failure cut short: it starts at the delay. */
  private static RunInput retryOfWait(
      String runId, String wakeUp, String activities, String chains) {
    RunInput first = input(runId, Canvases.threeDayWait(), Map.of("id", "x"), activities, chains);
    return RunInputBuilder.from(first)
        .startAt("wait")
        .after(Map.of("webhook_trigger_1", Map.of()), List.of("hook"))
        .rerunOrdinals(Map.of("wait", 1))
        .delaysWakeUp(Map.of("wait", wakeUp))
        .build();
  }

  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void everyBuiltNodeTypeRunsWithJoinsBranchesAndTimers(String activities, String chains) {
    ScriptedHttp http = startWorkers(0);
    RunResult result =
        stub(env.getWorkflowClient(), "r3")
            .run(
                input(
                    "r3",
                    Canvases.everyBuiltNodeType(),
                    Map.of("source", "crm"),
                    activities,
                    chains));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    List<NodeLogEntry> log = recorder.log("r3");
    assertThat(log)
        .extracting(NodeLogEntry::nodeId)
        .containsExactlyElementsOf(
            chains.equals("inline")
                // map runs on in filter's thread into merge before wait's thread starts
                ? List.of("hook", "fetch", "check", "filter", "map", "merge", "wait", "notify")
                : List.of("hook", "fetch", "check", "filter", "map", "wait", "merge", "notify"));
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/items", "https://example.com/done");
    assertThat(http.calls.get(1).body()).isEqualTo("{\"n\": \"1\"}");

    // what an operator sees in the Temporal UI: each step named by type and label, the wait by
    // its length; local activities appear as markers, the others as scheduled activities
    List<HistoryEvent> history =
        env.getWorkflowClient().fetchHistory(AutomationRunWorkflow.workflowId("r3")).getEvents();
    List<String> activitySummaries =
        history.stream()
            .filter(
                e ->
                    e.hasActivityTaskScheduledEventAttributes()
                        || (e.hasMarkerRecordedEventAttributes()
                            && e.getMarkerRecordedEventAttributes()
                                .getMarkerName()
                                .equals("LocalActivity")))
            .filter(e -> e.getUserMetadata().hasSummary())
            .map(e -> summary(e))
            .toList();
    assertThat(activitySummaries).containsExactly("http_request · fetch", "http_request · notify");
    assertThat(
            history.stream()
                .filter(HistoryEvent::hasTimerStartedEventAttributes)
                .map(e -> summary(e)))
        .containsExactly("wait 2 hours");
    long scheduled =
        history.stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes).count();
    long markers =
        history.stream()
            .filter(
                e ->
                    e.hasMarkerRecordedEventAttributes()
                        && e.getMarkerRecordedEventAttributes()
                            .getMarkerName()
                            .equals("LocalActivity"))
            .count();
    if (activities.equals("local")) {
      assertThat(scheduled).isZero();
      assertThat(markers).isGreaterThanOrEqualTo(4); // 2 http_request, at least 2 recordings
    } else {
      assertThat(markers).isZero();
      assertThat(scheduled).isGreaterThanOrEqualTo(4);
    }
  }

  /**
   * A real Temporal server refuses a payload over 2 MB; a workflow task that carries one fails
   * again on every attempt and the run never moves. Outputs near that limit (two answers of 900 kB
   * and a merge of 1.7 MB) keep every event of the run's history under it: recordings through the
   * crm queue go in batches of at most 1 MiB, and the merge, too large to pass at all, is logged as
   * a note of its size; local recordings keep no copy of their entries in history, so there the log
   * holds every output whole.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void largeOutputsKeepEveryEventOfTheHistoryUnderTemporalsPayloadLimit(
      String activities, String chains) throws Exception {
    startWorkers(0);
    WorkflowClient client = env.getWorkflowClient();
    String note = "y".repeat(800_000);
    RunResult result =
        stub(client, "r9")
            .run(input("r9", Canvases.largeOutputs(), Map.of("note", note), activities, chains));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    Map<String, NodeLogEntry> log = new LinkedHashMap<>();
    recorder.log("r9").forEach(entry -> log.put(entry.nodeId(), entry));
    assertThat(log.keySet()).containsExactly("hook", "large", "copy", "merge", "wait", "done");
    assertThat(log.values()).extracting(NodeLogEntry::status).containsOnly("completed");
    String blob = "x".repeat(ScriptedHttp.LARGE_BLOB);
    assertThat(log.get("large").output().get("body")).isEqualTo(Map.of("blob", blob));
    assertThat(log.get("copy").output()).isEqualTo(Map.of("copy", blob));
    if (activities.equals("local")) {
      assertThat(log.get("merge").output()).isEqualTo(Map.of("note", note, "blob", blob));
    } else {
      assertThat(log.get("merge").output())
          .containsEntry("omitted", HistoryPayloads.OMITTED)
          .extractingByKey("bytes", InstanceOfAssertFactories.INTEGER)
          .isGreaterThan(HistoryPayloads.LIMIT_BYTES);
    }

    WorkflowExecutionHistory recorded = client.fetchHistory(AutomationRunWorkflow.workflowId("r9"));
    WorkflowReplayer.replayWorkflowExecution(recorded, AutomationRunWorkflowImpl.class);
    List<HistoryEvent> history = recorded.getEvents();
    assertThat(history)
        .allSatisfy(
            event ->
                assertThat(event.getSerializedSize())
                    .as(event.getEventType().name())
                    .isLessThan(2 * 1024 * 1024));
    assertThat(history.stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes))
        .as("batches of at most 1 MiB; an entry of up to 1.5 MiB alone")
        .allSatisfy(
            event ->
                assertThat(event.getSerializedSize())
                    .isLessThan(HistoryPayloads.LIMIT_BYTES + 4096));
    List<Map<String, Payloads>> recordings =
        history.stream()
            .filter(HistoryEvent::hasMarkerRecordedEventAttributes)
            .map(e -> e.getMarkerRecordedEventAttributes().getDetailsMap())
            .filter(details -> details.containsKey("type"))
            .filter(details -> activityType(details).startsWith("record_"))
            .toList();
    assertThat(recordings).hasSizeGreaterThanOrEqualTo(activities.equals("local") ? 2 : 0);
    assertThat(recordings)
        .as("local recordings keep no copy of their entries in history")
        .allSatisfy(details -> assertThat(details).doesNotContainKey("input"));
  }

  /**
   * On the embedded defaults a chain of calls runs in one workflow task, and the task is handed in
   * as one message with the marker of every local activity in it, which a server takes only up to 4
   * MB: six answers of 900 kB make 5.4 MB, and the server terminates the run. A call that finds no
   * room for its answer in the task goes through the integrations queue.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aChainOfLargeAnswersKeepsEachWorkflowTaskUnderTheLimitAndCompletes(
      String activities, String chains) throws Exception {
    ScriptedHttp http = startWorkers(0);
    WorkflowClient client = env.getWorkflowClient();
    RunResult result =
        stub(client, "r10")
            .run(input("r10", Canvases.chainOfLargeCalls(6), Map.of(), activities, chains));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    assertThat(http.calls).hasSize(6);
    List<NodeLogEntry> log = recorder.log("r10");
    assertThat(log)
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("hook", "call1", "call2", "call3", "call4", "call5", "call6");
    assertThat(log).extracting(NodeLogEntry::status).containsOnly("completed");
    assertThat(log.subList(1, log.size()))
        .extracting(entry -> entry.output().get("body"))
        .containsOnly(Map.of("blob", "x".repeat(ScriptedHttp.LARGE_BLOB)));

    WorkflowExecutionHistory recorded = replayedWithEveryTaskUnder4MiB(client, "r10");
    List<HistoryEvent> history = recorded.getEvents();
    List<String> throughTheQueue =
        history.stream()
            .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
            .filter(e -> e.getUserMetadata().hasSummary())
            .map(e -> summary(e))
            .filter(summary -> summary.startsWith("http_request"))
            .toList();
    // local: three 900 kB answers fit in a task's 3 MiB; the fourth call goes through the queue,
    // and the two after it, in the next task, are local again
    assertThat(throughTheQueue)
        .containsExactlyElementsOf(
            activities.equals("local")
                ? List.of("http_request · call4")
                : List.of(
                    "http_request · call1",
                    "http_request · call2",
                    "http_request · call3",
                    "http_request · call4",
                    "http_request · call5",
                    "http_request · call6"));
  }

  /**
   * Calls in parallel branches run at the same time even when their task has no room for all of
   * their answers: the ones that find none go through the integrations queue instead of waiting.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void parallelCallsBeyondATasksRoomStillRunAtTheSameTime(String activities, String chains)
      throws Exception {
    ScriptedHttp http = startWorkers(0);
    WorkflowClient client = env.getWorkflowClient();
    WorkflowClient.start(
        stub(client, "r12")::run,
        input("r12", Canvases.parallelSlowCalls(4), Map.of(), activities, chains));

    // every call is in flight before any answers
    assertThat(http.slowCallsWaiting.tryAcquire(4, 20, java.util.concurrent.TimeUnit.SECONDS))
        .as("all four calls in flight at once")
        .isTrue();
    http.slowAnswer.complete(null);
    RunResult result =
        client
            .newUntypedWorkflowStub(AutomationRunWorkflow.workflowId("r12"))
            .getResult(30, java.util.concurrent.TimeUnit.SECONDS, RunResult.class);
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    assertThat(recorder.log("r12"))
        .extracting(NodeLogEntry::status)
        .containsExactly("completed", "completed", "completed", "completed", "completed");
  }

  /**
   * A request too large to pass through history (a template filled with a 1.7 MB value) would stop
   * the run for good on a real server, and over 4 MB get it terminated even on the embedded one.
   * Through the integrations queue the node fails instead, saying why; a local call keeps its
   * request out of its marker and is made.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void aRequestTooLargeForHistoryFailsItsNodeUnlessTheCallIsLocal(
      String activities, String chains) {
    ScriptedHttp http = startWorkers(0);
    String big = "z".repeat(1_700_000);
    Canvas canvas = Canvases.parallelPosts(1, "{{trigger.big}}");

    RunResult result =
        RunOutcomes.of(
            () ->
                stub(env.getWorkflowClient(), "r11")
                    .run(input("r11", canvas, Map.of("big", big), activities, chains)));

    if (activities.equals("local")) {
      assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
      assertThat(http.calls).extracting(HttpRequestCommand::body).containsExactly(big);
    } else {
      assertThat(result.status()).isEqualTo("failed");
      assertThat(result.error())
          .startsWith("node post1 (http_request) failed: the request is ")
          .endsWith(
              " bytes of JSON, over the 1572864 bytes an activity's input may carry through"
                  + " Temporal");
      assertThat(http.calls).isEmpty();
      assertThat(recorder.log("r11"))
          .extracting(NodeLogEntry::nodeId, NodeLogEntry::status)
          .containsExactly(tuple("hook", "completed"), tuple("post1", "failed"));
    }
  }

  /**
   * Parallel branches schedule their activities in the same workflow task, and the task's message
   * carries every input: three requests of 1.4 MB (each under the 1.5 MiB an input may carry) make
   * 4.2 MB, which the server refuses and terminates the run for. A request that would take its task
   * over waits for the next task.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void parallelLargeRequestsAreSpreadOverWorkflowTasks(String activities, String chains)
      throws Exception {
    ScriptedHttp http = startWorkers(0);
    WorkflowClient client = env.getWorkflowClient();
    String big = "q".repeat(1_400_000);
    RunResult result =
        stub(client, "r13")
            .run(
                input(
                    "r13",
                    Canvases.parallelPosts(3, "{{trigger.big}}"),
                    Map.of("big", big),
                    activities,
                    chains));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    assertThat(http.calls).extracting(HttpRequestCommand::body).containsOnly(big).hasSize(3);
    WorkflowExecutionHistory recorded = replayedWithEveryTaskUnder4MiB(client, "r13");
    // through the queue two inputs fit in a task's 3 MiB and the third waits for the next task;
    // locally two calls reserve room for their answers, and the third, sent through the queue for
    // want of room, waits likewise
    assertThat(timerSummaries(recorded)).containsExactly("hand in the workflow task");
  }

  /**
   * Parallel branches that each start waiting hand their log entries to the recorder in the same
   * task; through the crm queue the entries are in the recorder's inputs, and six of 700 kB take
   * the task over 4 MB. The recorder's batches count in the task's budget.
   */
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} activities, {1}")
  @CsvSource(textBlock = PLACEMENTS)
  void largeRecordingsOfParallelBranchesAreSpreadOverWorkflowTasks(String activities, String chains)
      throws Exception {
    startWorkers(0);
    WorkflowClient client = env.getWorkflowClient();
    String big = "c".repeat(700_000);
    RunResult result =
        stub(client, "r14")
            .run(
                input(
                    "r14",
                    Canvases.parallelCopiesThenWaits(6),
                    Map.of("big", big),
                    activities,
                    chains));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo("completed");
    List<NodeLogEntry> log = recorder.log("r14");
    assertThat(log).hasSize(13);
    assertThat(log)
        .filteredOn(entry -> entry.nodeId().startsWith("copy"))
        .extracting(NodeLogEntry::output)
        .hasSize(6)
        .containsOnly(Map.of("copy", big));
    assertThat(log).extracting(NodeLogEntry::status).containsOnly("completed");

    WorkflowExecutionHistory recorded = replayedWithEveryTaskUnder4MiB(client, "r14");
    // local recordings carry no entries in history; through the queue four 700 kB batches fit in
    // a task's 3 MiB and the other copies wait for the next task
    assertThat(timerSummaries(recorded))
        .filteredOn(summary -> summary.equals("hand in the workflow task"))
        .hasSize(activities.equals("local") ? 0 : 1);
  }

  /**
   * The run's history, replayed on today's interpreter, after checking that no workflow task handed
   * in 4 MiB or more (the server's limit on a task's message).
   */
  private static WorkflowExecutionHistory replayedWithEveryTaskUnder4MiB(
      WorkflowClient client, String runId) throws Exception {
    WorkflowExecutionHistory recorded =
        client.fetchHistory(AutomationRunWorkflow.workflowId(runId));
    WorkflowReplayer.replayWorkflowExecution(recorded, AutomationRunWorkflowImpl.class);
    assertThat(bytesPerWorkflowTask(recorded.getEvents()))
        .allSatisfy(bytes -> assertThat(bytes).isLessThan(4L << 20));
    return recorded;
  }

  /** The summaries of the history's timers, in order. */
  private static List<String> timerSummaries(WorkflowExecutionHistory history) {
    return history.getEvents().stream()
        .filter(HistoryEvent::hasTimerStartedEventAttributes)
        .map(e -> summary(e))
        .toList();
  }

  /**
   * For each workflow task handed in, the size of the events from its completion to the next task's
   * start: what the task's completion carried, and what arrived before the next one.
   */
  private static List<Long> bytesPerWorkflowTask(List<HistoryEvent> history) {
    List<Long> sizes = new ArrayList<>();
    Long current = null;
    for (HistoryEvent event : history) {
      if (event.hasWorkflowTaskCompletedEventAttributes()) {
        current = 0L;
        sizes.add(current);
      }
      if (event.hasWorkflowTaskStartedEventAttributes()) {
        current = null;
      }
      if (current != null) {
        current += event.getSerializedSize();
        sizes.set(sizes.size() - 1, current);
      }
    }
    return sizes;
  }

  /** The activity type a local activity's marker names. */
  private static String activityType(Map<String, Payloads> details) {
    return DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
        details.get("type").getPayloads(0), String.class, String.class);
  }

  private static String summary(HistoryEvent event) {
    return DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
        event.getUserMetadata().getSummary(), String.class, String.class);
  }
}
