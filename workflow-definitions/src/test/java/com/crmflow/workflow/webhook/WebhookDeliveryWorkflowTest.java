package com.crmflow.workflow.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
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
  private final List<Integer> attemptNumbers = new CopyOnWriteArrayList<>();
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
      attemptNumbers.add(attempt);
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
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(START));
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
    return start(new DeliveryInput("t", deliveryId, "contact.created", STANDARD));
  }

  private WorkflowExecution start(DeliveryInput input) {
    WebhookDeliveryWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                WebhookDeliveryWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setTaskQueue(TaskQueues.AUTOMATION)
                    .setWorkflowId(WebhookDeliveryWorkflow.workflowId(input.deliveryId()))
                    .build());
    return WorkflowClient.start(workflow::deliver, input);
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
  void aDeliveryTakenOverFromALostWorkflowGoesOnWithItsNextAttemptWhenItsDelayEnds()
      throws Exception {
    // attempts 1 and 2 were made before the restart; 10 minutes are left before attempt 3
    WorkflowExecution execution =
        start(new DeliveryInput("t", "d9", "contact.created", STANDARD, 2, 600_000L));

    assertThat(result(execution)).isEqualTo(AttemptOutcome.DELIVERED);
    assertThat(attemptNumbers).containsExactly(3);
    assertThat(Duration.between(START.plusSeconds(600), attempts.get(0)).abs())
        .isLessThan(Duration.ofSeconds(5));
    assertThat(finished).containsEntry("d9", AttemptOutcome.DELIVERED);
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

    // what a restarted worker does with the history: rebuild the state without side effects. A
    // real restart cannot be staged on the SDK's test server: it keeps sending the next task to
    // the stopped worker's sticky queue (a real server falls back to the normal queue).
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

  @Test
  void everyAttemptFailingEndsFailed() throws Exception {
    failFirst = 100;

    assertThat(result(start("d4"))).isEqualTo(AttemptOutcome.FAILED);
    assertThat(attempts).hasSize(8);
    assertThat(finished).containsEntry("d4", AttemptOutcome.FAILED);
  }
}
