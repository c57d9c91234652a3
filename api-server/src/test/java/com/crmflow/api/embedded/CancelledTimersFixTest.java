package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.embedded.ClosedWorkflowRetentionTest.Gate;
import com.crmflow.api.embedded.ClosedWorkflowRetentionTest.GateImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.internal.testservice.ExecutionId;
import io.temporal.internal.testservice.TestServicesStarter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Workflows that closed after another one started, and that the retention made the server forget,
 * leave the heap: the cancelled timeouts they scheduled no longer hold them.
 */
class CancelledTimersFixTest {

  private static final String QUEUE = "cancelled-timers-test";

  @WorkflowInterface
  public interface Nap {
    @WorkflowMethod
    String sleep(long millis);
  }

  public static class NapImpl implements Nap {
    @Override
    public String sleep(long millis) {
      Workflow.sleep(Duration.ofMillis(millis));
      return "woke";
    }
  }

  private EmbeddedTemporal temporal;
  private WorkflowServiceStubs stubs;
  private WorkflowClient client;
  private WorkerFactory workers;

  @AfterEach
  void stop() throws InterruptedException {
    workers.shutdownNow();
    workers.awaitTermination(5, TimeUnit.SECONDS);
    stubs.shutdownNow();
    temporal.close();
  }

  @Test
  void closedWorkflowsForgottenBehindAnOpenOneLeaveTheHeapAndTimersStillFire() throws Exception {
    // with an hour's retention the scheduled passes forget nothing: the test's own pass does
    temporal = EmbeddedTemporal.start(0, Duration.ofHours(1), Duration.ofHours(1), 10_000);
    stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setChannel(temporal.channel()).build());
    client = WorkflowClient.newInstance(stubs);
    workers = WorkerFactory.newInstance(client);
    workers.newWorker(QUEUE).registerWorkflowImplementationTypes(GateImpl.class, NapImpl.class);
    workers.start();
    assertThat(temporal.fixProblems()).isEmpty();

    // its run timeout, ten years out, comes before those of every workflow started after it
    Gate waiting = gate("open");
    WorkflowClient.start(waiting::pass, true);
    int closed = 2_500;
    List<WeakReference<Object>> firstClosed = new ArrayList<>();
    for (int i = 0; i < closed; i++) {
      assertThat(gate("closed-" + i).pass(false)).isEqualTo("passed");
      if (i < 10) {
        firstClosed.add(new WeakReference<>(serverStateOf("closed-" + i)));
      }
    }
    Instant afterAll = Instant.now().plusSeconds(1);
    assertThat(temporal.removeClosed(afterAll, 10_000, afterAll)).isEqualTo(closed);

    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              System.gc();
              return firstClosed.stream().allMatch(state -> state.get() == null);
            });
    // once the workflow tasks' 10 s timeouts are past, what is left is the open workflow's run
    // timeout and the cancelled tasks since the last purge (was: one per closed workflow, for good)
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> timerTasks().size() < 2 * CancelledTimersFix.PURGE_AFTER_AT_LEAST);

    // the timer still runs what is due, and the open workflow goes on
    Nap nap =
        client.newWorkflowStub(
            Nap.class,
            WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId("nap").build());
    assertThat(nap.sleep(200)).isEqualTo("woke");
    waiting.open();
    assertThat(WorkflowStub.fromTyped(waiting).getResult(String.class)).isEqualTo("passed");
  }

  /** The server's state of the workflow's (only) run. */
  private Object serverStateOf(String workflowId) throws ReflectiveOperationException {
    Map<?, ?> executions =
        (Map<?, ?>) TestServerInternals.read(services().getWorkflowService(), "executions");
    return executions.entrySet().stream()
        .filter(
            entry ->
                ((ExecutionId) entry.getKey()).getExecution().getWorkflowId().equals(workflowId))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow();
  }

  private Collection<?> timerTasks() throws ReflectiveOperationException {
    Object timer = TestServerInternals.read(services(), "selfAdvancingTimer");
    return (Collection<?>) TestServerInternals.read(timer, "tasks");
  }

  private TestServicesStarter services() throws ReflectiveOperationException {
    return (TestServicesStarter) TestServerInternals.read(temporal, "services");
  }

  private Gate gate(String workflowId) {
    return client.newWorkflowStub(
        Gate.class,
        WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId(workflowId).build());
  }
}
