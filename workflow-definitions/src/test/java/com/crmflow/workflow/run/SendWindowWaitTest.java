package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.action.SendWindowActivities;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import com.crmflow.workflow.node.SendWindow;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A delay with a send window on Temporal's test environment: it ends at the first moment inside the
 * window at or after its length, in the contact's zone looked up when it runs, and its log shows
 * that moment and the zone; a resumed one wakes at the moment it logged.
 */
@Timeout(60)
class SendWindowWaitTest {

  /** The window's zone as api-server would find it: the contact's, Tokyo. */
  static class TokyoContacts implements SendWindowActivities {
    final List<String> asked = new CopyOnWriteArrayList<>();

    @Override
    public WindowZone zone(
        String tenantId, String sequenceId, int canvasVersion, String contactId) {
      asked.add(contactId);
      return new WindowZone("Asia/Tokyo", "contact");
    }
  }

  private TestWorkflowEnvironment env;
  private final InMemoryRecorder recorder = new InMemoryRecorder();
  private final TokyoContacts zones = new TokyoContacts();

  @BeforeEach
  void setUp() {
    env = WorkflowTestEnvironments.newInstance();
    Worker automation = env.newWorker(TaskQueues.AUTOMATION);
    automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
    automation.registerActivitiesImplementations(recorder, zones);
    env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder, zones);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  /** 09:00–10:00 every day, in this zone ({@code contact}: the contact's). */
  private static Map<String, Object> nineToTenEveryDay(String timezone) {
    return Map.of(
        "days", List.of(1, 2, 3, 4, 5, 6, 7), "from", "09:00", "to", "10:00", "timezone", timezone);
  }

  private static final Map<String, Object> NINE_TO_TEN_EVERY_DAY = nineToTenEveryDay("contact");

  /** webhook → a delay of an hour that ends inside 09:00–10:00 in the contact's zone. */
  static Canvas windowedDelay() {
    return windowedDelay("wait", 1);
  }

  /**
   * webhook → a delay (its node id given) of these hours that ends inside 09:00–10:00 in the
   * contact's zone.
   */
  static Canvas windowedDelay(String delayId, int hours) {
    return windowedDelay(delayId, hours, "contact");
  }

  /** The same, the window in this zone. */
  static Canvas windowedDelay(String delayId, int hours, String timezone) {
    return new Canvas(
        List.of(
            Canvases.node("hook", "webhook_trigger", Map.of()),
            Canvases.node(
                delayId,
                "delay",
                Map.of("delayHours", hours, "window", nineToTenEveryDay(timezone)))),
        List.of(Canvases.edge("hook", delayId)));
  }

  private RunResult run(RunInput input) {
    return env.getWorkflowClient()
        .newWorkflowStub(
            AutomationRunWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.AUTOMATION)
                .setWorkflowId(AutomationRunWorkflow.workflowId(input.runId()))
                .build())
        .run(input);
  }

  @Test
  void aDelayWithAWindowEndsInsideItInTheContactsZoneAndLogsTheMomentAndTheZone() throws Exception {
    Instant started = Instant.ofEpochMilli(env.currentTimeMillis());
    RunInput input =
        RunInputBuilder.run("d1", windowedDelay())
            .payload(Map.of("contact_id", "c-7"))
            .embedded()
            .build();

    assertThat(run(input).status()).isEqualTo("completed");

    Instant expected =
        SendWindow.of(NINE_TO_TEN_EVERY_DAY)
            .firstOpen(started.plus(Duration.ofHours(1)), ZoneId.of("Asia/Tokyo"));
    NodeLogEntry wait = recorder.log("d1").get(0);
    assertThat(wait.nodeId()).isEqualTo("wait");
    assertThat(wait.status()).isEqualTo("completed");
    assertThat(((Number) wait.output().get("waitedSeconds")).longValue()).isEqualTo(3600);
    Map<?, ?> window = (Map<?, ?>) wait.output().get("window");
    assertThat(window.get("zone")).isEqualTo("Asia/Tokyo");
    assertThat(window.get("zone_from")).isEqualTo("contact");
    Instant until = Instant.parse((String) window.get("until"));
    assertThat(until).isBetween(expected.minusSeconds(1), expected.plusSeconds(1));
    assertThat(until.atZone(ZoneId.of("Asia/Tokyo")).getHour()).isEqualTo(9);
    assertThat(Instant.parse(wait.completedAt())).isAfterOrEqualTo(until);
    assertThat(zones.asked).containsExactly("c-7");
    WorkflowReplayer.replayWorkflowExecution(
        env.getWorkflowClient().fetchHistory("run-d1"), AutomationRunWorkflowImpl.class);
  }

  @Test
  void aResumedDelayWithAWindowWakesAtTheMomentItLogged() {
    String until =
        NodeLogEntry.timestamp(
            Instant.ofEpochMilli(env.currentTimeMillis()).plus(Duration.ofMinutes(7)));
    RunResume resume =
        new RunResume(
            Map.of("hook", new RunResume.NodeOutcome("completed", Map.of(), null)),
            Map.of("wait", new RunResume.WaitingDelay(2, until)),
            2);

    assertThat(
            run(RunInputBuilder.run("d2", windowedDelay())
                    .payload(Map.of("contact_id", "c-7"))
                    .embedded()
                    .resume(resume)
                    .build())
                .status())
        .isEqualTo("completed");

    NodeLogEntry wait = recorder.log("d2").get(0);
    assertThat(wait.seq()).isEqualTo(2);
    assertThat(((Map<?, ?>) wait.output().get("window")).get("until")).isEqualTo(until);
    assertThat(Instant.parse(wait.completedAt())).isAfterOrEqualTo(Instant.parse(until));
  }
}
