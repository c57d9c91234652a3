package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.util.Timestamps;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded server forgets a workflow once it has been closed for longer than the retention
 * period, and only then; open workflows are left alone.
 */
class ClosedWorkflowRetentionTest {

  private static final String QUEUE = "retention-test";

  /** Long enough that a slow machine still sees a closed workflow before it is removed. */
  private static final Duration KEEP_CLOSED = Duration.ofSeconds(5);

  @WorkflowInterface
  public interface Gate {
    @WorkflowMethod
    String pass(boolean waitForOpen);

    @SignalMethod
    void open();
  }

  public static class GateImpl implements Gate {
    private boolean open;

    @Override
    public String pass(boolean waitForOpen) {
      Workflow.await(() -> open || !waitForOpen);
      return "passed";
    }

    @Override
    public void open() {
      open = true;
    }
  }

  /** Continues as new {@code times} times, then waits, as a schedule's workflow does. */
  @WorkflowInterface
  public interface Chain {
    @WorkflowMethod
    String run(int times);

    @SignalMethod
    void open();
  }

  public static class ChainImpl implements Chain {
    private boolean open;

    @Override
    public String run(int times) {
      if (times > 0) {
        Workflow.continueAsNew(times - 1);
      }
      Workflow.await(() -> open);
      return "ended";
    }

    @Override
    public void open() {
      open = true;
    }
  }

  private EmbeddedTemporal temporal;
  private WorkflowServiceStubs stubs;
  private WorkflowClient client;
  private WorkerFactory workers;

  private void startServerAndWorker(Duration keepClosed, int keepClosedAtMost) {
    startServerAndWorker(keepClosed, keepClosed, keepClosedAtMost);
  }

  private void startServerAndWorker(
      Duration keepClosed, Duration keepCompleted, int keepClosedAtMost) {
    temporal = EmbeddedTemporal.start(0, keepClosed, keepCompleted, keepClosedAtMost);
    stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setChannel(temporal.channel()).build());
    client = WorkflowClient.newInstance(stubs);
    workers = WorkerFactory.newInstance(client);
    workers.newWorker(QUEUE).registerWorkflowImplementationTypes(GateImpl.class, ChainImpl.class);
    workers.start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (temporal == null) {
      return;
    }
    workers.shutdownNow();
    workers.awaitTermination(5, TimeUnit.SECONDS);
    stubs.shutdownNow();
    temporal.close();
  }

  @Test
  void aClosedWorkflowIsForgottenAfterTheRetentionPeriodAndAnOpenOneIsKept() {
    startServerAndWorker(KEEP_CLOSED, 10_000);
    assertThat(temporal.fixProblems()).isEmpty();
    assertThat(gate("closed").pass(false)).isEqualTo("passed");
    Gate waiting = gate("open");
    WorkflowClient.start(waiting::pass, true);

    // within the period the closed workflow is there, and still holds its id
    assertThat(status("closed"))
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    assertThatThrownBy(() -> WorkflowClient.start(gate("closed")::pass, false))
        .isInstanceOf(WorkflowExecutionAlreadyStarted.class);

    await().atMost(Duration.ofSeconds(30)).until(() -> forgotten("closed", ""));

    // the open workflow was left as it was: it still takes its signal and ends
    assertThat(status("open")).isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    waiting.open();
    assertThat(WorkflowStub.fromTyped(waiting).getResult(String.class)).isEqualTo("passed");
    // and the forgotten workflow's id is free again, as after a real server's retention
    assertThat(gate("closed").pass(false)).isEqualTo("passed");
  }

  @Test
  void aCompletedWorkflowIsForgottenAfterItsShorterTimeAndATerminatedOneIsKeptForTheLongerOne() {
    startServerAndWorker(Duration.ofHours(1), KEEP_CLOSED, 10_000);
    Gate stopped = gate("stopped");
    WorkflowClient.start(stopped::pass, true);
    WorkflowStub.fromTyped(stopped).terminate("an operator stopped it");
    assertThat(gate("completed").pass(false)).isEqualTo("passed");
    Gate waiting = gate("open");
    WorkflowClient.start(waiting::pass, true);
    assertThat(status("completed"))
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);

    await().atMost(Duration.ofSeconds(30)).until(() -> forgotten("completed", ""));

    // a workflow an operator stopped stays for the inspection keep-closed allows
    assertThat(status("stopped"))
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);
    assertThat(status("open")).isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(gate("completed").pass(false)).as("its id is free again").isEqualTo("passed");
  }

  @Test
  void theOpenRunOfAContinuedAsNewChainIsKeptWhenTheClosedRunBeforeItIsForgotten() {
    startServerAndWorker(KEEP_CLOSED, 10_000);
    Chain chain =
        client.newWorkflowStub(
            Chain.class,
            WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId("chain").build());
    String firstRunId = WorkflowClient.start(chain::run, 1).getRunId();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                !describe("chain", "")
                    .getWorkflowExecutionInfo()
                    .getExecution()
                    .getRunId()
                    .equals(firstRunId));
    assertThat(describe("chain", firstRunId).getWorkflowExecutionInfo().getStatus())
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW);

    await().atMost(Duration.ofSeconds(30)).until(() -> forgotten("chain", firstRunId));

    assertThat(status("chain"))
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    client.newWorkflowStub(Chain.class, "chain").open();
    assertThat(client.newUntypedWorkflowStub("chain").getResult(String.class)).isEqualTo("ended");
  }

  @Test
  void beyondTheCountTheOldestClosedWorkflowsAreForgottenFirst() {
    startServerAndWorker(Duration.ofHours(1), 2);
    Gate waiting = gate("open");
    WorkflowClient.start(waiting::pass, true);
    for (String workflowId : List.of("first", "second", "third")) {
      assertThat(gate(workflowId).pass(false)).isEqualTo("passed");
      // close times are in milliseconds: the next one closes in a later one
      long closedAt =
          Timestamps.toMillis(describe(workflowId, "").getWorkflowExecutionInfo().getCloseTime());
      await().until(() -> System.currentTimeMillis() > closedAt);
    }

    await().atMost(Duration.ofSeconds(30)).until(() -> forgotten("first", ""));
    assertThat(forgotten("second", "")).isFalse();
    assertThat(forgotten("third", "")).isFalse();
    assertThat(status("open")).isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
  }

  @Test
  void aPassForgetsMoreClosedWorkflowsThanOneHoldOfTheServersLocksTakes() throws Exception {
    startServerAndWorker(Duration.ofHours(1), 10_000);
    Gate waiting = gate("open");
    WorkflowClient.start(waiting::pass, true);
    int closed = 2 * ClosedWorkflowRetention.PER_LOCK_HOLD + 1; // three slices
    for (int i = 0; i < closed; i++) {
      assertThat(gate("closed-" + i).pass(false)).isEqualTo("passed");
    }
    Instant afterAll = Instant.now().plusSeconds(1);

    assertThat(temporal.removeClosed(afterAll, 10_000, afterAll)).isEqualTo(closed);

    for (int i : List.of(0, closed / 2, closed - 1)) { // one of each slice
      assertThat(forgotten("closed-" + i, "")).as("closed-" + i).isTrue();
      assertThat(gate("closed-" + i).pass(false)).as("its id is free again").isEqualTo("passed");
    }
    assertThat(status("open")).isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    waiting.open();
    assertThat(WorkflowStub.fromTyped(waiting).getResult(String.class)).isEqualTo("passed");
  }

  @Test
  void aWorkflowClosedOtherThanByCompletingIsHandedOverOnceAndKeptUntilItIs() throws Exception {
    startServerAndWorker(Duration.ofHours(1), 10_000);
    List<String> handedOver = new ArrayList<>();
    AtomicBoolean listenerFails = new AtomicBoolean(true);
    temporal.onUnfinishedClosed(
        (workflowId, started, closing) -> {
          if (listenerFails.get()) {
            throw new IllegalStateException("the database is unreachable");
          }
          handedOver.add(
              workflowId
                  + " "
                  + DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
                      started
                          .getWorkflowExecutionStartedEventAttributes()
                          .getMemo()
                          .getFieldsMap()
                          .get("run_id"),
                      String.class,
                      String.class)
                  + " "
                  + closing.getEventType()
                  + " "
                  + closing.getWorkflowExecutionTerminatedEventAttributes().getReason());
        },
        Duration.ofHours(1)); // the scheduled passes hand nothing over during the test
    assertThat(gate("done").pass(false)).isEqualTo("passed");
    Gate stopped =
        client.newWorkflowStub(
            Gate.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(QUEUE)
                .setWorkflowId("stopped")
                .setMemo(Map.of("run_id", "run-7"))
                .build());
    WorkflowClient.start(stopped::pass, true);
    WorkflowStub.fromTyped(stopped).terminate("an operator stopped it");
    Instant afterBoth = Instant.now().plusSeconds(1);
    Instant longAgo = Instant.now().minus(Duration.ofHours(1));

    // the listener fails: the terminated workflow stays for the next pass, the completed one goes
    assertThat(temporal.removeClosed(afterBoth, 10_000, afterBoth)).isEqualTo(1);
    assertThat(forgotten("done", "")).isTrue();
    assertThat(status("stopped"))
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);
    assertThat(handedOver).isEmpty();

    // handed over once it has been closed long enough, while the server still keeps it
    listenerFails.set(false);
    assertThat(temporal.removeClosed(longAgo, 10_000, afterBoth)).isZero();
    String told = "stopped run-7 EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED an operator stopped it";
    assertThat(handedOver).containsExactly(told);
    assertThat(status("stopped"))
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);
    assertThat(temporal.removeClosed(longAgo, 10_000, afterBoth)).isZero();
    assertThat(handedOver).as("once").containsExactly(told);

    // and forgotten in its time, without being handed over again
    assertThat(temporal.removeClosed(afterBoth, 10_000, afterBoth)).isEqualTo(1);
    assertThat(forgotten("stopped", "")).isTrue();
    assertThat(handedOver).containsExactly(told);
  }

  /** Whether the server answers NOT_FOUND for the run (the latest run when runId is empty). */
  private boolean forgotten(String workflowId, String runId) {
    try {
      describe(workflowId, runId);
      return false;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return true;
      }
      throw e;
    }
  }

  private Gate gate(String workflowId) {
    return client.newWorkflowStub(
        Gate.class,
        WorkflowOptions.newBuilder()
            .setTaskQueue(QUEUE)
            .setWorkflowId(workflowId)
            .setWorkflowIdReusePolicy(
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
            .build());
  }

  private WorkflowExecutionStatus status(String workflowId) {
    return describe(workflowId, "").getWorkflowExecutionInfo().getStatus();
  }

  /** The run {@code runId} of the workflow, or its latest run when runId is empty. */
  private DescribeWorkflowExecutionResponse describe(String workflowId, String runId) {
    return stubs
        .blockingStub()
        .describeWorkflowExecution(
            DescribeWorkflowExecutionRequest.newBuilder()
                .setNamespace(client.getOptions().getNamespace())
                .setExecution(
                    WorkflowExecution.newBuilder().setWorkflowId(workflowId).setRunId(runId))
                .build());
  }
}
