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
   * shortened to a second here). crm_update and the email's read and booking are local activities,
   * so the run takes three workflow tasks: the start up to the delay's timer, the timer up to the
   * send, the send up to the end. The send is the one activity: it must never run again with a
   * workflow task. The change's version marker is asked once, until the change is listed in the
   * run's input ({@code InterpreterChanges.CHANGES}).
   */
  @Test
  void theTourFlowCostsThreeWorkflowTasksAndOneActivityTheSend() {
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
    assertThat(cost(history)).as(describe(history)).isEqualTo(new Cost(24, 3, 1, 6, 1));
    assertThat(
            history.stream()
                .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                .map(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName()))
        .containsExactly("email");
    // the write and the email happened, once each (the tenant is new: its one run's)
    assertThat(tenant.api().get("/api/v1/contacts/" + contact).text("/contact/lifecycle_stage"))
        .isEqualTo("lead");
    JsonNode emails = tenant.api().get("/api/v1/outbound-emails").json();
    assertThat(emails.at("/total").asInt()).as(emails.toString()).isEqualTo(1);
    assertThat(emails.at("/outbound_emails/0/subject").asString()).isEqualTo("Welcome, Ada");
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
