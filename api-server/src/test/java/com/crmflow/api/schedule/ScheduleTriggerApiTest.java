package com.crmflow.api.schedule;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.schedule.ScheduleTriggerRepository.ScheduleRow;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.RunHistory;
import com.crmflow.workflow.schedule.ScheduleActivities;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Activating, pausing, editing and archiving an automation with a schedule_trigger. */
class ScheduleTriggerApiTest extends ApiTest {

  @Autowired private WorkflowClient temporal;
  @Autowired private ScheduleActivities scheduleActivities;
  @Autowired private ScheduleTriggers scheduleTriggers;
  @Autowired private ScheduleTriggerRepository schedules;
  private TenantClient tenant;
  private LocalHttpServer peer;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    peer = new LocalHttpServer();
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  private Map<String, Object> scheduled(String clock, String time) {
    return canvas(
        List.of(
            node(
                clock,
                "schedule_trigger",
                Map.of("scheduleType", "daily", "time", time, "timezone", "Europe/Berlin")),
            reportTo("/report")),
        List.of(edge("e1", clock, "report")));
  }

  /** Node "report": POSTs the run's scheduled time to the peer at {@code path}. */
  private Map<String, Object> reportTo(String path) {
    return node(
        "report",
        "http_request",
        Map.of(
            "method",
            "POST",
            "url",
            peer.url(path),
            "bodyTemplate",
            "{\"at\": \"{{trigger.scheduled_at}}\"}"));
  }

  private WorkflowExecutionInfo describe(String clock) {
    return RunHistory.describe(temporal, "schedule-" + tenant.id() + "-" + clock);
  }

  private String state(String clock) {
    return jdbc.sql("select state from schedule_trigger where tenant_id = :t and node_id = :n")
        .param("t", tenant.id())
        .param("n", clock)
        .query(String.class)
        .optional()
        .orElse("none");
  }

  private WorkflowExecutionInfo awaitStatus(String clock, WorkflowExecutionStatus status) {
    return await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> describe(clock), info -> info.getStatus() == status);
  }

  /**
   * The workflow time of the execution's first completed workflow task: the time its task-started
   * event holds (a task that failed or timed out before it does not count).
   */
  private Instant firstCompletedTaskTime(WorkflowExecution execution) {
    Instant started = null;
    for (HistoryEvent event :
        temporal.fetchHistory(execution.getWorkflowId(), execution.getRunId()).getEvents()) {
      if (event.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
        started = RunHistory.timeOf(event);
      } else if (event.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        return started;
      }
    }
    throw new AssertionError("no completed workflow task in " + execution);
  }

  private void setStatus(String sequence, String status) {
    assertThat(
            tenant.api().patch("/api/v1/sequences/" + sequence, Map.of("status", status)).status())
        .isEqualTo(200);
  }

  @Test
  void theScheduleWorkflowFollowsTheAutomationsLifecycle() {
    String clock = uniqueId("clock");
    String sequence = activeAutomation(tenant.api(), scheduled(clock, "09:00"));

    WorkflowExecutionInfo first =
        awaitStatus(clock, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("running"));
    assertThat(first.getType().getName()).isEqualTo("ScheduleTriggerWorkflow");

    setStatus(sequence, "paused");
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("none"));
    assertThat(describe(clock).getStatus())
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);

    setStatus(sequence, "active");
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("running"));
    WorkflowExecutionInfo second =
        awaitStatus(clock, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(second.getExecution().getRunId()).isNotEqualTo(first.getExecution().getRunId());

    // editing the schedule of the active automation restarts it on the new canvas version
    assertThat(
            tenant
                .api()
                .put("/api/sequences/" + sequence + "/canvas", scheduled(clock, "17:30"))
                .status())
        .isEqualTo(200);
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> describe(clock).getExecution().getRunId(),
            runId -> !runId.equals(second.getExecution().getRunId()));
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("running"));
    assertThat(
            jdbc.sql(
                    "select config ->> 'time' from schedule_trigger"
                        + " where tenant_id = :t and node_id = :n")
                .param("t", tenant.id())
                .param("n", clock)
                .query(String.class)
                .single())
        .isEqualTo("17:30");
    assertThat(describe(clock).getStatus())
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);

    setStatus(sequence, "archived");
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("none"));
    assertThat(describe(clock).getStatus())
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);
  }

  @Test
  void theReconcilerLeavesAChangeToItsOwnApplyAndAppliesOneLeftUndoneForAnInterval() {
    String clock = uniqueId("clock");
    activeAutomation(tenant.api(), scheduled(clock, "07:15"));
    String applied =
        awaitStatus(clock, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING)
            .getExecution()
            .getRunId();
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("running"));

    // as if a change had just committed and its own apply were under way
    markStarting(clock, "now()");
    scheduleTriggers.reconcile();
    assertThat(describe(clock).getExecution().getRunId())
        .as("the workflow the change's apply started, not terminated by the reconciler")
        .isEqualTo(applied);
    assertThat(describe(clock).getStatus())
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(state(clock)).isEqualTo("starting");

    // the change's apply never got through (the process stopped after the commit)
    markStarting(clock, "now() - interval '1 minute'");
    scheduleTriggers.reconcile();
    assertThat(describe(clock).getExecution().getRunId()).isNotEqualTo(applied);
    assertThat(describe(clock).getStatus())
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(state(clock)).isEqualTo("running");
  }

  @Test
  void ofTwoApiServersReconcilesOnlyOneTakesARowLeftUndone() {
    String clock = uniqueId("clock");
    activeAutomation(tenant.api(), scheduled(clock, "04:30"));
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("running"));
    Duration interval = Duration.ofSeconds(5);
    // the reconciles and lost-schedule checks of this process take turns on the bean: none runs
    // between the two reads below
    assertThat(AopUtils.isAopProxy(scheduleTriggers)).isFalse();
    ScheduleRow read;
    synchronized (scheduleTriggers) {
      markStarting(clock, "now() - interval '1 minute'");
      read = pendingRow(clock, interval).orElseThrow();

      assertThat(schedules.take(read, interval, ScheduleTriggers.APPLY_HOLD))
          .as("one api-server's reconcile")
          .isPresent();
      assertThat(schedules.take(read, interval, ScheduleTriggers.APPLY_HOLD))
          .as("the other's, which read the row as pending too")
          .isEmpty();
    }
    // the taker applies it
    assertThat(scheduleTriggers.apply(read)).isTrue();
    assertThat(state(clock)).isEqualTo("running");
  }

  @Test
  void aRowGivenBackIsPendingForTheNextReconcileUnlessAChangeReplacedIt() {
    String clock = uniqueId("clock");
    activeAutomation(tenant.api(), scheduled(clock, "03:45"));
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("running"));
    Duration interval = Duration.ofSeconds(5);
    synchronized (scheduleTriggers) {
      markStarting(clock, "now() - interval '1 minute'");
      ScheduleRow read = pendingRow(clock, interval).orElseThrow();
      try {
        // Temporal could not be reached: the reconcile gives the row it took back (each statement
        // below reads a later now() than the one before, so "given back" is older than interval)
        ScheduleRow taken =
            schedules.take(read, interval, ScheduleTriggers.APPLY_HOLD).orElseThrow();
        assertThat(pendingRow(clock, interval)).as("held while taken").isEmpty();
        schedules.giveBack(taken, interval);
        assertThat(pendingRow(clock, interval)).as("given back").contains(read);

        // an edit saves a new canvas version while the row is taken: the edit's apply has it
        taken = schedules.take(read, interval, ScheduleTriggers.APPLY_HOLD).orElseThrow();
        setScheduleRow(clock, "canvas_version = canvas_version + 1, updated_at = now()");
        String editedAt = updatedAt(clock);
        schedules.giveBack(taken, interval);
        assertThat(pendingRow(clock, interval)).as("the edit's row, left to its apply").isEmpty();
        assertThat(updatedAt(clock)).as("the edit's time kept").isEqualTo(editedAt);

        // a pause while the row is taken: the pause's apply has it
        setScheduleRow(
            clock, "canvas_version = canvas_version - 1, updated_at = now() - interval '1 minute'");
        taken = schedules.take(read, interval, ScheduleTriggers.APPLY_HOLD).orElseThrow();
        schedules.wantStopped(tenant.id(), clock);
        String pausedAt = updatedAt(clock);
        schedules.giveBack(taken, interval);
        assertThat(pendingRow(clock, interval)).as("the pause's row, left to its apply").isEmpty();
        assertThat(updatedAt(clock)).as("the pause's time kept").isEqualTo(pausedAt);

        // a pause and an activation while the row is taken: the same state and version as taken,
        // and the activation's apply has it
        markStarting(clock, "now() - interval '1 minute'");
        taken = schedules.take(read, interval, ScheduleTriggers.APPLY_HOLD).orElseThrow();
        schedules.wantStopped(tenant.id(), clock);
        schedules.wantRunning(
            tenant.id(), clock, read.sequenceId(), read.canvasVersion(), read.config());
        String activatedAt = updatedAt(clock);
        schedules.giveBack(taken, interval);
        assertThat(pendingRow(clock, interval))
            .as("the activation's row, left to its apply")
            .isEmpty();
        assertThat(updatedAt(clock)).as("the activation's time kept").isEqualTo(activatedAt);
      } finally {
        // as it was read, and applied: its workflow runs on the sequence's own version
        markStarting(clock, "now()");
        setScheduleRow(clock, "canvas_version = " + read.canvasVersion());
        assertThat(scheduleTriggers.apply(read)).isTrue();
      }
    }
    assertThat(state(clock)).isEqualTo("running");
  }

  /** Sets columns of the test's schedule row, as a change of its flow would. */
  private void setScheduleRow(String clock, String assignments) {
    jdbc.sql(
            "update schedule_trigger set " + assignments + " where tenant_id = :t and node_id = :n")
        .param("t", tenant.id())
        .param("n", clock)
        .update();
  }

  private Optional<ScheduleRow> pendingRow(String clock, Duration olderThan) {
    return schedules.pending(olderThan, 1000).stream()
        .filter(row -> row.nodeId().equals(clock))
        .findFirst();
  }

  private String updatedAt(String clock) {
    return jdbc.sql(
            "select updated_at::text from schedule_trigger where tenant_id = :t and node_id = :n")
        .param("t", tenant.id())
        .param("n", clock)
        .query(String.class)
        .single();
  }

  @Test
  void aScheduleTemporalRefusesIsPutBackAndHoldsUpNoOtherInTheReconcile() {
    String refused = uniqueId("clock");
    String clock = uniqueId("clock");
    activeAutomation(tenant.api(), scheduled(refused, "05:15"));
    activeAutomation(tenant.api(), scheduled(clock, "05:45"));
    String applied =
        awaitStatus(clock, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING)
            .getExecution()
            .getRunId();
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> state(refused).equals("running") && state(clock).equals("running"));
    // a row left undone whose workflow input is over Temporal's blob size limit (2 MB), ahead of
    // another left undone
    jdbc.sql(
            """
            update schedule_trigger set state = 'starting',
                updated_at = now() - interval '2 minutes',
                config = jsonb_set(config, '{padding}', to_jsonb(repeat('x', 3000000)))
            where tenant_id = :t and node_id = :n
            """)
        .param("t", tenant.id())
        .param("n", refused)
        .update();
    markStarting(clock, "now() - interval '1 minute'");
    try {
      scheduleTriggers.reconcile();

      assertThat(state(clock)).as("the row after the refused one").isEqualTo("running");
      assertThat(describe(clock).getExecution().getRunId()).isNotEqualTo(applied);
      assertThat(describe(clock).getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
      assertThat(state(refused)).isEqualTo("starting");
      assertThat(
              jdbc.sql(
                      """
                      select updated_at > now() + interval '1 minute' from schedule_trigger
                      where tenant_id = :t and node_id = :n
                      """)
                  .param("t", tenant.id())
                  .param("n", refused)
                  .query(Boolean.class)
                  .single())
          .as("held behind the others for the reconcile's hold")
          .isTrue();
    } finally {
      // the other tests' reconciles need not meet it
      jdbc.sql("delete from schedule_trigger where tenant_id = :t and node_id = :n")
          .param("t", tenant.id())
          .param("n", refused)
          .update();
    }
  }

  private void markStarting(String clock, String updatedAt) {
    setScheduleRow(clock, "state = 'starting', updated_at = " + updatedAt);
  }

  /** A running schedule whose workflow is then terminated; returns the terminated run's id. */
  private String terminatedSchedule(String clock, String reason) {
    activeAutomation(tenant.api(), scheduled(clock, "06:45"));
    WorkflowExecutionInfo running =
        awaitStatus(clock, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("running"));
    temporal.newUntypedWorkflowStub("schedule-" + tenant.id() + "-" + clock).terminate(reason);
    return running.getExecution().getRunId();
  }

  /** Waits until a new workflow of the schedule runs, after the terminated one. */
  private void awaitStartedAgain(String clock, String terminatedRunId) {
    WorkflowExecutionInfo after =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () -> describe(clock),
                info ->
                    info.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
                        && !info.getExecution().getRunId().equals(terminatedRunId));
    assertThat(after.getType().getName()).isEqualTo("ScheduleTriggerWorkflow");
    await().atMost(Patience.EVENTUALLY).until(() -> state(clock).equals("running"));
  }

  @Test
  void aScheduleWhoseWorkflowWasLostIsStartedAgainOnStart() {
    String clock = uniqueId("clock");
    // as if it had been terminated while the service was down
    String lost = terminatedSchedule(clock, "lost in a restart");

    scheduleTriggers.restartLostSchedules();

    awaitStartedAgain(clock, lost);
  }

  @Test
  void aScheduleWhoseWorkflowIsTerminatedInTemporalIsStartedAgain() {
    String clock = uniqueId("clock");
    String terminated = terminatedSchedule(clock, "stopped by an operator");

    // the periodic check (every second in tests) starts it again; nothing else is called
    awaitStartedAgain(clock, terminated);
  }

  @Test
  void eachFireStartsOneRunCarryingItsScheduledTime() {
    String clock = uniqueId("clock");
    String sequence = activeAutomation(tenant.api(), scheduled(clock, "09:00"));
    String at = "2026-11-23T08:00:00Z";

    String runId =
        scheduleActivities.startScheduledRun(tenant.id().toString(), sequence, clock, 1, at);
    String again =
        scheduleActivities.startScheduledRun(tenant.id().toString(), sequence, clock, 1, at);

    assertThat(again).isEqualTo(runId);
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/trigger_payload/scheduled_at").asString()).isEqualTo(at);
    assertThat(run.get("trigger_node_id").asString()).isEqualTo(clock);
    assertThat(peer.received("/report")).hasSize(1);
    assertThat(peer.received("/report").get(0).body()).isEqualTo("{\"at\": \"" + at + "\"}");
    assertThat(
            tenant
                .api()
                .get("/api/v1/automation-runs?sequence_id=" + sequence)
                .at("/total")
                .asInt())
        .isEqualTo(1);

    setStatus(sequence, "paused");
    assertThat(
            scheduleActivities.startScheduledRun(
                tenant.id().toString(), sequence, clock, 1, "2026-11-24T08:00:00Z"))
        .isNull();
  }

  /**
   * The schedule's own timer on the Temporal server: a schedule that fires every minute starts a
   * run at the next minute, carrying that minute as its scheduled time. Takes up to a minute.
   */
  @Test
  void aScheduleFiresOnTheTemporalServerAtItsTimeAndStartsARun() {
    String clock = uniqueId("minutely");
    Map<String, Object> everyMinute =
        canvas(
            List.of(
                node(
                    clock,
                    "schedule_trigger",
                    Map.of(
                        "scheduleType",
                        "custom",
                        "customCron",
                        "* * * * *",
                        "time",
                        "00:00",
                        "timezone",
                        "Europe/Berlin")),
                reportTo("/minutely")),
            List.of(edge("e1", clock, "report")));
    Instant activated = Instant.now();
    String sequence = activeAutomation(tenant.api(), everyMinute);

    WorkflowExecutionInfo schedule =
        awaitStatus(clock, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(schedule.getSearchAttributes().getIndexedFieldsMap())
        .containsKeys("CrmTenantId", "CrmSequenceId", "CrmTriggerKind", "CrmStatus");
    JsonNode runs =
        await()
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () -> tenant.api().get("/api/v1/automation-runs?sequence_id=" + sequence),
                list -> list.at("/total").asInt() >= 1)
            .at("/runs");
    setStatus(sequence, "paused");

    String runId = runs.get(runs.size() - 1).get("id").asString();
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.get("trigger_node_id").asString()).isEqualTo(clock);
    Instant scheduledAt = Instant.parse(run.at("/trigger_payload/scheduled_at").asString());
    assertThat(scheduledAt.getEpochSecond() % 60).as("a whole minute").isZero();
    // the first slot after the schedule's workflow began counting (the workflow time of its first
    // completed task), however long the activation took
    Instant counting = firstCompletedTaskTime(schedule.getExecution());
    assertThat(scheduledAt)
        .isAfter(activated)
        .isAfter(counting)
        .isBeforeOrEqualTo(counting.plusSeconds(60));
    assertThat(Instant.parse(run.get("started_at").asString()))
        .as("started when its minute came, before the next")
        .isBetween(scheduledAt, scheduledAt.plusSeconds(60));
    assertThat(peer.received("/minutely").get(0).body())
        .isEqualTo("{\"at\": \"" + scheduledAt + "\"}");
  }
}
