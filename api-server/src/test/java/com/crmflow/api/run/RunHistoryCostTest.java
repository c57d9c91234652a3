package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.run.AutomationRunWorkflowImpl;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * What a run costs Temporal, read from its workflow history: events, workflow tasks, activities and
 * local activities, for the benchmark's flows (docs/benchmarks.md) and the README's tour. The
 * counts are pinned, so a change that adds to a run's history shows here, with the events it adds.
 */
class RunHistoryCostTest extends ApiTest {

  @Autowired private WorkflowClient temporal;

  /** Flow A of the benchmark: webhook_trigger → http_request. */
  @Test
  void flowACostsOneWorkflowTaskTwoLocalActivitiesAndNoVersionMarker() {
    try (LocalHttpServer sink = new LocalHttpServer()) {
      String trigger = SequenceSupport.uniqueId("a");
      List<HistoryEvent> history =
          historyOfOneRun(
              trigger,
              chain(
                  trigger,
                  node(
                      "call",
                      "http_request",
                      http("POST", sink.url("/sink"), "bodyTemplate", "{\"id\": 1}"))),
              Map.of("id", "x"));
      assertThat(sink.received("/sink")).hasSize(1);
      assertThat(cost(history)).as(describe(history)).isEqualTo(new Cost(8, 1, 0, 2, 0));
      // the start, one workflow task, the call and the end (with the node log) as local
      // activities, the run's status for the Temporal UI's list
      assertThat(types(history))
          .containsExactly(
              EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
              EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
              EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
              EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
              EventType.EVENT_TYPE_MARKER_RECORDED,
              EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
              EventType.EVENT_TYPE_MARKER_RECORDED,
              EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED);
    }
  }

  private record Cost(
      int events, int workflowTasks, int activities, int localActivities, int versionMarkers) {}

  /** Flow B of the benchmark: webhook_trigger → delay 1 s → http_request. */
  @Test
  void flowBCostsTwoWorkflowTasksAndFourLocalActivities() {
    try (LocalHttpServer sink = new LocalHttpServer()) {
      String trigger = SequenceSupport.uniqueId("b");
      List<HistoryEvent> history =
          historyOfOneRun(
              trigger,
              chain(
                  trigger,
                  node("wait", "delay", Map.of("delayHours", 0.000277778)),
                  node(
                      "call",
                      "http_request",
                      http("POST", sink.url("/sink"), "bodyTemplate", "{\"id\": 1}"))),
              Map.of("id", "x"));
      assertThat(sink.received("/sink")).hasSize(1);
      assertThat(cost(history)).as(describe(history)).isEqualTo(new Cost(15, 2, 0, 4, 0));
    }
  }

  /**
   * The README's tour: webhook_trigger → crm_update of the contact → delay → email (its delay
   * shortened to a second here).
   */
  @Test
  void theTourFlowCostsSixWorkflowTasks() {
    TenantClient tenant = newTenant();
    String contact =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "ada@example.com", "first_name", "Ada"))
            .text("/contact/id");
    String trigger = SequenceSupport.uniqueId("new-lead");
    List<HistoryEvent> history =
        historyOfOneRun(
            tenant,
            trigger,
            chain(
                trigger,
                node(
                    "mark",
                    "crm_update",
                    Map.of(
                        "entityType",
                        "contact",
                        "fieldMappings",
                        Map.of("lifecycle_stage", "lead", "lead_source", "{{trigger.source}}"))),
                node("pause", "delay", Map.of("delayHours", 0.000277778)),
                node(
                    "welcome",
                    "email",
                    Map.of(
                        "subject",
                        "Welcome, {{contact.first_name}}",
                        "body",
                        "Glad to have you."))),
            Map.of("contact_id", contact, "source", "tour"));
    assertThat(cost(history)).as(describe(history)).isEqualTo(new Cost(38, 6, 4, 3, 0));
  }

  private List<HistoryEvent> historyOfOneRun(
      String trigger, Map<String, Object> canvas, Object payload) {
    return historyOfOneRun(newTenant(), trigger, canvas, payload);
  }

  private List<HistoryEvent> historyOfOneRun(
      TenantClient tenant, String trigger, Map<String, Object> canvas, Object payload) {
    SequenceSupport.activeAutomation(tenant.api(), canvas);
    String runId = SequenceSupport.fire(anonymous(), tenant.id(), trigger, payload);
    JsonNode run = SequenceSupport.awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo(RunResult.COMPLETED);
    WorkflowExecutionHistory history =
        temporal.fetchHistory(AutomationRunWorkflow.workflowId(runId));
    // a run started without version markers replays on today's interpreter
    try {
      WorkflowReplayer.replayWorkflowExecution(history, AutomationRunWorkflowImpl.class);
    } catch (Exception e) {
      throw new AssertionError("the run's history does not replay", e);
    }
    return history.getEvents();
  }

  private static Cost cost(List<HistoryEvent> history) {
    int tasks = 0;
    int activities = 0;
    int local = 0;
    int versions = 0;
    for (HistoryEvent event : history) {
      switch (event.getEventType()) {
        case EVENT_TYPE_WORKFLOW_TASK_COMPLETED -> tasks++;
        case EVENT_TYPE_ACTIVITY_TASK_SCHEDULED -> activities++;
        case EVENT_TYPE_MARKER_RECORDED -> {
          String marker = event.getMarkerRecordedEventAttributes().getMarkerName();
          if (marker.equals("LocalActivity")) {
            local++;
          } else if (marker.equals("Version")) {
            versions++;
          }
        }
        default -> {}
      }
    }
    return new Cost(history.size(), tasks, activities, local, versions);
  }

  private static List<EventType> types(List<HistoryEvent> history) {
    return history.stream().map(HistoryEvent::getEventType).toList();
  }

  private static String describe(List<HistoryEvent> history) {
    return history.stream()
        .map(
            e ->
                e.getEventType()
                    + (e.hasMarkerRecordedEventAttributes()
                        ? " " + e.getMarkerRecordedEventAttributes().getMarkerName()
                        : ""))
        .collect(Collectors.joining("\n", "history:\n", ""));
  }
}
