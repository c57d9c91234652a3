package com.crmflow.workflow.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.TaskQueues;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The delivery schedule on the test server, skipping through hours of retries. */
@Timeout(60)
class WebhookDeliveryWorkflowTest {

  private static final Instant START = Instant.parse("2026-05-04T10:00:00Z");

  /** The default schedule (Standard Webhooks): now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
  private static final List<Long> STANDARD =
      List.of(0L, 5_000L, 300_000L, 1_800_000L, 7_200_000L, 18_000_000L, 36_000_000L, 36_000_000L);

  private TestWorkflowEnvironment env;
  private final List<Instant> attempts = new CopyOnWriteArrayList<>();
  private final Map<String, String> finished = new ConcurrentHashMap<>();
  private volatile int failFirst;
  private volatile boolean disabled;

  private class Receiver implements WebhookActivities {
    @Override
    public AttemptOutcome attempt(String deliveryId, int attempt) {
      if (disabled) {
        return new AttemptOutcome(AttemptOutcome.STOPPED, null, "disabled");
      }
      attempts.add(Instant.ofEpochMilli(env.currentTimeMillis()));
      return attempt <= failFirst
          ? new AttemptOutcome(AttemptOutcome.FAILED, 500, "HTTP 500")
          : new AttemptOutcome(AttemptOutcome.DELIVERED, 204, null);
    }

    @Override
    public void finish(String deliveryId, String status) {
      finished.put(deliveryId, status);
    }
  }

  @BeforeEach
  void setUp() {
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(START).build());
    env.getWorkerFactory()
        .newWorker(TaskQueues.AUTOMATION)
        .registerWorkflowImplementationTypes(WebhookDeliveryWorkflowImpl.class);
    env.getWorkerFactory()
        .newWorker(TaskQueues.CRM)
        .registerActivitiesImplementations(new Receiver());
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private WorkflowExecution start(String deliveryId) {
    WebhookDeliveryWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                WebhookDeliveryWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setTaskQueue(TaskQueues.AUTOMATION)
                    .setWorkflowId(WebhookDeliveryWorkflow.workflowId(deliveryId))
                    .build());
    return WorkflowClient.start(
        workflow::deliver, new DeliveryInput("t", deliveryId, "contact.created", STANDARD));
  }

  private String result(WorkflowExecution execution) throws Exception {
    return env.getWorkflowClient()
        .newUntypedWorkflowStub(execution.getWorkflowId())
        .getResult(30, TimeUnit.SECONDS, String.class);
  }

  @Test
  void retriesFollowTheScheduleUntilASuccess() throws Exception {
    failFirst = 4;

    String outcome = result(start("d1"));

    assertThat(outcome).isEqualTo(AttemptOutcome.DELIVERED);
    assertThat(attempts).hasSize(5);
    long[] expectedOffsets = {0, 5_000, 305_000, 2_105_000, 9_305_000};
    for (int i = 0; i < 5; i++) {
      Duration late = Duration.between(START.plusMillis(expectedOffsets[i]), attempts.get(i)).abs();
      assertThat(late)
          .as("attempt %d at %s", i + 1, attempts.get(i))
          .isLessThan(Duration.ofSeconds(5));
    }
    assertThat(finished).containsEntry("d1", AttemptOutcome.DELIVERED);
  }

  @Test
  void aDisabledSubscriptionStopsTheRetries() throws Exception {
    failFirst = 100;
    WorkflowExecution execution = start("d2");
    env.sleep(Duration.ofMinutes(10)); // three attempts failed
    disabled = true;

    assertThat(result(execution)).isEqualTo(AttemptOutcome.STOPPED);
    assertThat(attempts).hasSize(3);
    assertThat(finished).containsEntry("d2", AttemptOutcome.STOPPED);
  }

  @Test
  void aDeliveryWaitingForItsNextAttemptReplaysOnAFreshWorker() throws Exception {
    failFirst = 2;
    WorkflowExecution execution = start("d3");
    env.sleep(Duration.ofMinutes(1)); // two attempts failed, waiting for the 5-minute retry

    // what a restarted worker does with the history: rebuild the state without side effects
    WorkflowReplayer.replayWorkflowExecution(
        env.getWorkflowClient().fetchHistory(execution.getWorkflowId()),
        WebhookDeliveryWorkflowImpl.class);
    assertThat(attempts).hasSize(2);

    assertThat(result(execution)).isEqualTo(AttemptOutcome.DELIVERED);
    assertThat(attempts).hasSize(3);
    WorkflowReplayer.replayWorkflowExecution(
        env.getWorkflowClient().fetchHistory(execution.getWorkflowId()),
        WebhookDeliveryWorkflowImpl.class);
  }

  /**
   * A real worker restart between two attempts, on a test server without time skipping (the SDK's
   * test server cannot skip time once a worker factory has shut down, sdk-java #2670) and with the
   * workflow cache off, so the next task goes to the task queue, not to the stopped worker.
   */
  @Test
  void aDeliveryContinuesOnANewWorkerAfterARestartMidRetry() throws Exception {
    TestWorkflowEnvironment realTime =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
    try {
      failFirst = 2;
      WorkerFactory first = uncachedWorkers(realTime);
      first.start();
      WebhookDeliveryWorkflow workflow =
          realTime
              .getWorkflowClient()
              .newWorkflowStub(
                  WebhookDeliveryWorkflow.class,
                  WorkflowOptions.newBuilder()
                      .setTaskQueue(TaskQueues.AUTOMATION)
                      .setWorkflowId(WebhookDeliveryWorkflow.workflowId("d5"))
                      .build());
      WorkflowExecution execution =
          WorkflowClient.start(
              workflow::deliver,
              new DeliveryInput("t", "d5", "contact.created", List.of(0L, 100L, 3_000L)));
      long deadline = System.currentTimeMillis() + 10_000;
      while (attempts.size() < 2 && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(attempts).hasSize(2); // both failed; the third is 3 s away
      first.shutdownNow();
      first.awaitTermination(10, TimeUnit.SECONDS);

      WorkerFactory second = uncachedWorkers(realTime);
      second.start();
      String outcome =
          realTime
              .getWorkflowClient()
              .newUntypedWorkflowStub(execution.getWorkflowId())
              .getResult(30, TimeUnit.SECONDS, String.class);

      assertThat(outcome).isEqualTo(AttemptOutcome.DELIVERED);
      assertThat(attempts).hasSize(3);
      assertThat(finished).containsEntry("d5", AttemptOutcome.DELIVERED);
      second.shutdownNow();
    } finally {
      realTime.close();
    }
  }

  private WorkerFactory uncachedWorkers(TestWorkflowEnvironment environment) {
    WorkerFactory factory =
        WorkerFactory.newInstance(
            environment.getWorkflowClient(),
            WorkerFactoryOptions.newBuilder().setWorkflowCacheSize(0).build());
    factory
        .newWorker(TaskQueues.AUTOMATION)
        .registerWorkflowImplementationTypes(WebhookDeliveryWorkflowImpl.class);
    factory.newWorker(TaskQueues.CRM).registerActivitiesImplementations(new Receiver());
    return factory;
  }

  @Test
  void everyAttemptFailingEndsFailed() throws Exception {
    failFirst = 100;

    assertThat(result(start("d4"))).isEqualTo(AttemptOutcome.FAILED);
    assertThat(attempts).hasSize(8);
    assertThat(finished).containsEntry("d4", AttemptOutcome.FAILED);
  }
}
