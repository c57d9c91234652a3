package com.crmflow.workflow.run;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.action.ChatActivities;
import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.CrmWrite;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.action.EmailContext;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.enrollment.EnrollmentWorkflow;
import com.crmflow.workflow.enrollment.EnrollmentWorkflowImpl;
import com.crmflow.workflow.schedule.ScheduleActivities;
import com.crmflow.workflow.schedule.ScheduleInput;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflow;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflowImpl;
import com.crmflow.workflow.webhook.AttemptOutcome;
import com.crmflow.workflow.webhook.DeliveryInput;
import com.crmflow.workflow.webhook.WebhookActivities;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflow;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Records the histories of the enrollment, schedule and webhook-delivery workflows that {@link
 * HistoryReplayTest} replays (files named {@code enrollment-}, {@code schedule-}, {@code
 * delivery-}), and a run through the side-effect nodes ({@code side-effects-}). Run like {@link
 * HistoryRecorder}, with this class as the main class; add files when behaviour changes on purpose,
 * never rewrite recorded ones.
 */
public final class FlowHistoryRecorder {

  private FlowHistoryRecorder() {}

  public static void main(String[] args) throws Exception {
    Path target =
        Path.of(args.length > 0 ? args[0] : "workflow-definitions/src/test/resources/histories");
    Files.createDirectories(target);
    recordEnrollment(target.resolve("enrollment-three-steps.json"));
    recordSchedule(target.resolve("schedule-berlin-spring-forward.json"));
    recordDelivery(target.resolve("delivery-two-failures-then-success.json"));
    recordSideEffectNodes(target.resolve("side-effects-email-chat-crm.json"));
    recordEmailOfUnknownOutcome(target.resolve("side-effects-email-unknown-outcome.json"));
  }

  /** A run whose email's hand-over had no known outcome: booked as unknown, the run failed. */
  private static void recordEmailOfUnknownOutcome(Path file) throws Exception {
    try (TestWorkflowEnvironment env = WorkflowTestEnvironments.newInstance()) {
      env.newWorker(TaskQueues.AUTOMATION)
          .registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
      env.newWorker(TaskQueues.CRM)
          .registerActivitiesImplementations(new InMemoryRecorder(), new Mail());
      EmailActivities cutShort =
          message -> {
            throw ApplicationFailure.newNonRetryableFailure(
                "the email may have been delivered", EmailActivities.OUTCOME_UNKNOWN);
          };
      env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(cutShort);
      env.start();
      Canvas canvas =
          new Canvas(
              List.of(
                  node("hook", "webhook_trigger", Map.of()),
                  node("mail", "email", Map.of("to", "ops@example.com", "subject", "Hi"))),
              List.of(new CanvasEdge("e1", "hook", "mail", null, null)));
      runAndWrite(env, "unknown-email", canvas, Map.of(), Map.of(), file);
    }
  }

  /** A run through email, chat_message, crm_update and create_record (and a skipped email). */
  private static void recordSideEffectNodes(Path file) throws Exception {
    try (TestWorkflowEnvironment env = WorkflowTestEnvironments.newInstance()) {
      env.newWorker(TaskQueues.AUTOMATION)
          .registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
      ChatActivities chat =
          (tenant, channel, text, runId, nodeId) -> Map.of("ok", true, "ts", "1.5");
      CrmRecordActivities crm =
          new CrmRecordActivities() {
            @Override
            public Map<String, Object> update(CrmWrite write) {
              return Map.of("entity_type", write.entityType(), "id", write.recordId());
            }

            @Override
            public Map<String, Object> create(CrmWrite write) {
              return Map.of("entity_type", write.entityType(), "id", "new-1");
            }
          };
      env.newWorker(TaskQueues.CRM)
          .registerActivitiesImplementations(new InMemoryRecorder(), new Mail(), chat, crm);
      env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(new Mail());
      env.start();
      Canvas canvas =
          new Canvas(
              List.of(
                  node("hook", "webhook_trigger", Map.of()),
                  node("mail", "email", Map.of("subject", "Hi {{contact.first_name}}")),
                  node(
                      "say",
                      "chat_message",
                      Map.of("channel", "#sales", "messageTemplate", "New: {{trigger.name}}")),
                  node(
                      "mark",
                      "crm_update",
                      Map.of(
                          "entityType", "contact", "fieldMappings", Map.of("lead_status", "hot"))),
                  node(
                      "note",
                      "create_record",
                      Map.of(
                          "entityType",
                          "note",
                          "fieldMappings",
                          Map.of("content", "{{chat_message_1.ts}}")))),
              List.of(
                  new CanvasEdge("e1", "hook", "mail", null, null),
                  new CanvasEdge("e2", "mail", "say", null, null),
                  new CanvasEdge("e3", "say", "mark", null, null),
                  new CanvasEdge("e4", "mark", "note", null, null)));
      runAndWrite(
          env,
          "side-effects",
          canvas,
          Map.of("contact_id", "c", "name", "Ada"),
          Map.of("contact_id", "c", "first_name", "Ada"),
          file);
    }
  }

  /**
   * Runs the canvas from "hook" as run {@code runId} (remote activities) and writes its history.
   */
  private static void runAndWrite(
      TestWorkflowEnvironment env,
      String runId,
      Canvas canvas,
      Map<String, Object> payload,
      Map<String, Object> contact,
      Path file)
      throws Exception {
    String workflowId = AutomationRunWorkflow.workflowId(runId);
    env.getWorkflowClient()
        .newWorkflowStub(
            AutomationRunWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.AUTOMATION)
                .setWorkflowId(workflowId)
                .build())
        .run(
            RunInputBuilder.run(runId, canvas)
                .tenant("t", "s")
                .payload(payload)
                .contact(contact)
                .build());
    Files.writeString(file, env.getWorkflowClient().fetchHistory(workflowId).toJson(true));
  }

  private static CanvasNode node(String id, String type, Map<String, Object> config) {
    return new CanvasNode(id, type, new Position(0, 0), new NodeData(id, config));
  }

  private static final class Mail implements EmailActivities, EmailBookActivities {
    @Override
    public EmailReceipt send(EmailMessage message) {
      return new EmailReceipt(EmailReceipt.SENT, message.messageId());
    }

    @Override
    public EmailContext context(String tenantId, String contactId, String templateId) {
      return new EmailContext(
          Map.of("contact_id", contactId, "email", "ada@example.com", "first_name", "Ada"),
          null,
          null,
          null);
    }

    @Override
    public void record(
        String tenantId, String runId, String nodeId, EmailMessage message, String status) {}
  }

  private static void recordEnrollment(Path file) throws Exception {
    try (TestWorkflowEnvironment env = WorkflowTestEnvironments.newInstance()) {
      env.newWorker(TaskQueues.AUTOMATION)
          .registerWorkflowImplementationTypes(EnrollmentWorkflowImpl.class);
      env.newWorker(TaskQueues.CRM)
          .registerActivitiesImplementations(new InMemoryRecorder(), new Mail());
      env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(new Mail());
      env.start();
      Canvas canvas = Canvases.threeStepSequence();
      String workflowId = EnrollmentWorkflow.workflowId("t", "s", "c");
      env.getWorkflowClient()
          .newWorkflowStub(
              EnrollmentWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setTaskQueue(TaskQueues.AUTOMATION)
                  .setWorkflowId(workflowId)
                  .build())
          .run(
              RunInputBuilder.run("r-enrollment", canvas)
                  .tenant("t", "s")
                  .startAt("step1")
                  .payload(Map.of("contact_id", "c"))
                  .contact(Map.of("contact_id", "c", "first_name", "Ada"))
                  .build());
      Files.writeString(file, env.getWorkflowClient().fetchHistory(workflowId).toJson(true));
    }
  }

  private static void recordSchedule(Path file) throws Exception {
    try (TestWorkflowEnvironment env =
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setInitialTime(Instant.parse("2026-03-27T12:00:00Z")))) {
      env.newWorker(TaskQueues.AUTOMATION)
          .registerWorkflowImplementationTypes(ScheduleTriggerWorkflowImpl.class);
      ScheduleActivities runs = (tenant, sequence, node, version, at) -> "run-" + at;
      env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(runs);
      env.start();
      String workflowId = ScheduleTriggerWorkflow.workflowId("t", "clock");
      WorkflowClient.start(
          env.getWorkflowClient()
                  .newWorkflowStub(
                      ScheduleTriggerWorkflow.class,
                      WorkflowOptions.newBuilder()
                          .setTaskQueue(TaskQueues.AUTOMATION)
                          .setWorkflowId(workflowId)
                          .build())
              ::run,
          new ScheduleInput(
              "t",
              "s",
              "clock",
              1,
              Map.of("scheduleType", "daily", "time", "02:30", "timezone", "Europe/Berlin"),
              null));
      env.sleep(Duration.ofDays(3));
      Files.writeString(file, env.getWorkflowClient().fetchHistory(workflowId).toJson(true));
    }
  }

  private static void recordDelivery(Path file) throws Exception {
    try (TestWorkflowEnvironment env = WorkflowTestEnvironments.newInstance()) {
      env.newWorker(TaskQueues.AUTOMATION)
          .registerWorkflowImplementationTypes(WebhookDeliveryWorkflowImpl.class);
      env.newWorker(TaskQueues.CRM)
          .registerActivitiesImplementations(
              new WebhookActivities() {
                @Override
                public AttemptOutcome attempt(String deliveryId, int attempt) {
                  return attempt <= 2
                      ? new AttemptOutcome(AttemptOutcome.FAILED, 500, "HTTP 500")
                      : new AttemptOutcome(AttemptOutcome.DELIVERED, 204, null);
                }

                @Override
                public void finish(String deliveryId, String status) {}
              });
      env.start();
      String workflowId = WebhookDeliveryWorkflow.workflowId("d1");
      env.getWorkflowClient()
          .newWorkflowStub(
              WebhookDeliveryWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setTaskQueue(TaskQueues.AUTOMATION)
                  .setWorkflowId(workflowId)
                  .build())
          .deliver(
              new DeliveryInput(
                  "t", "d1", "contact.created", List.of(0L, 5_000L, 300_000L, 1_800_000L)));
      Files.writeString(file, env.getWorkflowClient().fetchHistory(workflowId).toJson(true));
    }
  }
}
