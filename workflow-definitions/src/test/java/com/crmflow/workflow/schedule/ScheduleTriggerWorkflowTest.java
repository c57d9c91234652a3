package com.crmflow.workflow.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** ScheduleTriggerWorkflow on the test server, skipping days of time across DST changes. */
@Timeout(60)
class ScheduleTriggerWorkflowTest {

  private TestWorkflowEnvironment env;
  private final List<String> fired = new CopyOnWriteArrayList<>();

  private class Runs implements ScheduleActivities {
    @Override
    public String startScheduledRun(
        String tenantId, String sequenceId, String nodeId, int canvasVersion, String scheduledAt) {
      fired.add(scheduledAt);
      return "run-" + scheduledAt;
    }
  }

  private void startEnvironment(String initialTime) {
    env =
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(Instant.parse(initialTime)));
    env.getWorkerFactory()
        .newWorker(TaskQueues.AUTOMATION)
        .registerWorkflowImplementationTypes(ScheduleTriggerWorkflowImpl.class);
    env.getWorkerFactory().newWorker(TaskQueues.CRM).registerActivitiesImplementations(new Runs());
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private void schedule(Map<String, Object> config, String firedUpTo) {
    ScheduleTriggerWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                ScheduleTriggerWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setTaskQueue(TaskQueues.AUTOMATION)
                    .setWorkflowId(ScheduleTriggerWorkflow.workflowId("t", "clock"))
                    .build());
    WorkflowClient.start(workflow::run, new ScheduleInput("t", "s", "clock", 3, config, firedUpTo));
  }

  @Test
  void berlinDailyAcrossSpringForwardFiresOncePerDay() {
    startEnvironment("2026-03-27T12:00:00Z");
    schedule(Map.of("scheduleType", "daily", "time", "02:30", "timezone", "Europe/Berlin"), null);

    env.sleep(Duration.ofDays(4));

    assertThat(fired)
        .containsExactly(
            "2026-03-28T01:30:00Z",
            "2026-03-29T01:30:00Z",
            "2026-03-30T00:30:00Z",
            "2026-03-31T00:30:00Z");
  }

  @Test
  void newYorkDailyAcrossFallBackFiresTheRepeatedHourOnce() {
    startEnvironment("2026-10-30T12:00:00Z");
    schedule(
        Map.of("scheduleType", "daily", "time", "01:30", "timezone", "America/New_York"), null);

    env.sleep(Duration.ofDays(4));

    assertThat(fired)
        .containsExactly(
            "2026-10-31T05:30:00Z",
            "2026-11-01T05:30:00Z",
            "2026-11-02T06:30:00Z",
            "2026-11-03T06:30:00Z");
  }

  @Test
  void afterDowntimeOnlyTheLatestMissedFireWithinTheCatchUpWindowRuns() {
    // the schedule last fired three days ago and wakes 20 minutes after today's 10:00
    startEnvironment("2026-06-10T10:20:00Z");
    schedule(
        Map.of("scheduleType", "daily", "time", "10:00", "timezone", "UTC"),
        "2026-06-07T10:00:00Z");

    env.sleep(Duration.ofDays(1));

    assertThat(fired).containsExactly("2026-06-10T10:00:00Z", "2026-06-11T10:00:00Z");
  }

  @Test
  void afterDowntimeAMissedFireOlderThanTheWindowIsSkipped() {
    startEnvironment("2026-06-10T12:00:00Z");
    schedule(
        Map.of("scheduleType", "daily", "time", "10:00", "timezone", "UTC"),
        "2026-06-07T10:00:00Z");

    env.sleep(Duration.ofDays(1));

    assertThat(fired).containsExactly("2026-06-11T10:00:00Z");
  }
}
