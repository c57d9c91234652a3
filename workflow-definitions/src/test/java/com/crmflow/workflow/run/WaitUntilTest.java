package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.action.RecordWatch;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * wait_until on Temporal's test environment: the run enters a watch of its contact, an event
 * signalled to it meets the wait (once, however often it arrives), and without one it gives up at
 * its timeout; a resumed run keeps its deadline and takes the events routed before its watch.
 */
@Timeout(60)
class WaitUntilTest {

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

  private static RunInput input(String runId, Canvas canvas, boolean local) {
    return RunInputBuilder.run(runId, canvas)
        .payload(Map.of("contact_id", "c-1"))
        .localActivities(local)
        .inlineChains(local)
        .build();
  }

  private WorkflowExecution start(RunInput input) {
    return WorkflowClient.start(
        env.getWorkflowClient()
                .newWorkflowStub(
                    AutomationRunWorkflow.class,
                    WorkflowOptions.newBuilder()
                        .setTaskQueue(TaskQueues.AUTOMATION)
                        .setWorkflowId(AutomationRunWorkflow.workflowId(input.runId()))
                        .build())
            ::run,
        input);
  }

  private AutomationRunWorkflow running(String runId) {
    return env.getWorkflowClient()
        .newWorkflowStub(AutomationRunWorkflow.class, AutomationRunWorkflow.workflowId(runId));
  }

  private RunResult result(String runId) {
    return RunOutcomes.of(() -> WorkflowStub.fromTyped(running(runId)).getResult(RunResult.class));
  }

  private RecordWatch awaitWatch(String runId) throws Exception {
    return watches.entered(runId + "/reply").get(20, TimeUnit.SECONDS);
  }

  private static RecordEvent reply(String runId, long seq, String eventId, String content) {
    return new RecordEvent(
        runId,
        "reply",
        seq,
        eventId,
        Map.of(
            "event",
            "conversation.message_received",
            "tenant_id",
            "tenant",
            "data",
            Map.of("contact_id", "c-1", "content", content)));
  }

  private NodeLogEntry entry(String runId, String nodeId) {
    return recorder.log(runId).stream()
        .filter(e -> e.nodeId().equals(nodeId))
        .findFirst()
        .orElseThrow();
  }

  @ParameterizedTest(name = "local activities: {0}")
  @ValueSource(booleans = {true, false})
  void aReplyMeetsTheWaitAndTheRunGoesOnAlongMet(boolean local) throws Exception {
    WorkflowExecution execution = start(input("w1", Canvases.waitForAReply(), local));
    RecordWatch watch = awaitWatch("w1");
    assertThat(watch)
        .isEqualTo(
            new RecordWatch(
                "tenant",
                "w1",
                "run-w1",
                "reply",
                "contact",
                "c-1",
                "conversation.message_received",
                null,
                null));
    // the entry is written beside the watch, not before it: it may land after the watch
    NodeLogEntry waiting = recorder.recorded("w1", "reply", "running").get(20, TimeUnit.SECONDS);
    assertThat(waiting.seq()).isEqualTo(2);
    assertThat(waiting.output())
        .containsEntry("event", "conversation.message_received")
        .containsKey("until");

    running("w1").recordEvent(reply("w1", 10, "e-1", "Yes please"));

    assertThat(result("w1").status()).isEqualTo("completed");
    NodeLogEntry met = entry("w1", "reply");
    assertThat(met.seq()).as("the waiting entry, ended").isEqualTo(waiting.seq());
    assertThat(met.status()).isEqualTo("completed");
    assertThat(met.output()).containsEntry("outcome", "met");
    assertThat(met.output().get("event").toString()).contains("Yes please");
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/met");
    assertThat(recorder.log("w1")).extracting(NodeLogEntry::nodeId).doesNotContain("gave-up");
    assertThat(watches.watches).isEmpty();
    assertThat(watches.left).containsExactly("w1/reply");
    WorkflowReplayer.replayWorkflowExecution(
        env.getWorkflowClient().fetchHistory(execution.getWorkflowId()),
        AutomationRunWorkflowImpl.class);
  }

  @Test
  void withoutAReplyTheWaitGivesUpAtItsTimeoutAndGoesOnAlongTimeout() throws Exception {
    Instant started = Instant.ofEpochMilli(env.currentTimeMillis());
    start(input("w2", Canvases.waitForAReply(), true));
    awaitWatch("w2");

    assertThat(result("w2").status()).isEqualTo("completed");

    NodeLogEntry gaveUp = entry("w2", "reply");
    assertThat(gaveUp.output()).containsEntry("outcome", "timeout");
    Instant until = Instant.parse((String) gaveUp.output().get("until"));
    assertThat(Duration.between(started, until))
        .isBetween(Duration.ofDays(3), Duration.ofDays(3).plusMinutes(1));
    assertThat(Instant.parse(gaveUp.completedAt())).isAfterOrEqualTo(until);
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/timeout");
    assertThat(watches.left).containsExactly("w2/reply");
  }

  @Test
  void anEventSignalledTwiceOrMeantForAnotherRunMeetsTheWaitOnce() throws Exception {
    start(input("w3", Canvases.waitForAReply(), true));
    awaitWatch("w3");

    // an enrollment's workflow id passes to the contact's next run: another run's event is not its
    running("w3").recordEvent(reply("an-earlier-run", 5, "e-0", "Not for you"));
    running("w3").recordEvent(reply("w3", 10, "e-1", "First"));
    running("w3").recordEvent(reply("w3", 10, "e-1", "First"));
    running("w3").recordEvent(reply("w3", 11, "e-2", "Second"));

    assertThat(result("w3").status()).isEqualTo("completed");
    Map<?, ?> event = (Map<?, ?>) entry("w3", "reply").output().get("event");
    assertThat(event.get("data").toString()).contains("First");
    // the met branch ran once: one log entry per node, and every attempt of its call (an attempt
    // may be made again, with the same idempotency key) under one key
    assertThat(recorder.log("w3"))
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("hook", "reply", "met");
    assertThat(http.calls)
        .isNotEmpty()
        .extracting(HttpRequestCommand::idempotencyKey)
        .containsOnly("w3:met");
  }

  /**
   * A run whose workflow was lost while it waited: started where its log stood, it keeps the
   * deadline it logged, and its watch answers with the event routed to it meanwhile.
   */
  @Test
  void aResumedWaitKeepsItsDeadlineAndTakesTheEventsRoutedBeforeItsWatch() {
    String until =
        NodeLogEntry.timestamp(
            Instant.ofEpochMilli(env.currentTimeMillis()).plus(Duration.ofHours(5)));
    RunResume resume =
        new RunResume(
            Map.of("hook", new RunResume.NodeOutcome("completed", Map.of(), null)),
            Map.of("reply", new RunResume.WaitingDelay(2, until)),
            2);
    watches.routedBefore.put("w4/reply", List.of(reply("w4", 20, "e-9", "While you were away")));

    start(RunInputBuilder.from(input("w4", Canvases.waitForAReply(), true)).resume(resume).build());

    assertThat(result("w4").status()).isEqualTo("completed");
    NodeLogEntry met = entry("w4", "reply");
    assertThat(met.seq()).as("the same log entry").isEqualTo(2);
    assertThat(met.output()).containsEntry("outcome", "met");
    assertThat(met.output().get("event").toString()).contains("While you were away");

    RunResume gaveUp =
        new RunResume(
            Map.of("hook", new RunResume.NodeOutcome("completed", Map.of(), null)),
            Map.of("reply", new RunResume.WaitingDelay(2, until)),
            2);
    start(RunInputBuilder.from(input("w5", Canvases.waitForAReply(), true)).resume(gaveUp).build());
    assertThat(result("w5").status()).isEqualTo("completed");
    assertThat(entry("w5", "reply").output())
        .as("it gives up at the logged deadline, not three days later")
        .containsEntry("outcome", "timeout")
        .containsEntry("until", until);
  }

  @Test
  void aRunWithoutAContactFailsItsWaitSayingWhy() {
    start(RunInputBuilder.run("w6", Canvases.waitForAReply()).localActivities(true).build());

    RunResult result = result("w6");
    assertThat(result.status()).isEqualTo("failed");
    assertThat(entry("w6", "reply").error())
        .isEqualTo(
            "the run has no contact whose conversation.message_received events it could wait for"
                + " (its trigger names no contact_id)");
    assertThat(watches.watches).isEmpty();
  }
}
