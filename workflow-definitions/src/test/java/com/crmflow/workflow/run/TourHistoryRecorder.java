package com.crmflow.workflow.run;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
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
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Records the README's tour (webhook_trigger → crm_update of the contact → a one-second delay →
 * email) as api-server runs a trigger's run on its embedded defaults ({@link
 * RunInputBuilder#embedded}, started with {@link InterpreterChanges#CHANGES}), for {@link
 * HistoryReplayTest}. Every worker hosts the crm activities, so where crm_update and the email's
 * read and booking run is the interpreter's choice alone.
 *
 * <ul>
 *   <li>{@code local-tour-crm-calls-local.json}: this class at this code. The run records the
 *       {@code crm-calls-local} marker, and crm_update, {@code email_context} and {@code
 *       record_email} are local activities; the send is an activity of the integrations queue.
 *   <li>{@code local-tour-crm-queue.json}: the same run recorded by this class on the commit before
 *       {@code crm-calls-local} (27a6dee, where {@code RunInput} and {@code AutomationRunWorkflow}
 *       are in the package {@code run}, the change list is {@code
 *       AutomationRunWorkflowImpl.CHANGES} and the input is built with {@code RunInput}'s
 *       constructor). The three calls are activities of the crm queue.
 * </ul>
 *
 * <p>Run like {@link HistoryRecorder}, with this class as the main class and the file's name as the
 * second argument; it writes that one file.
 */
public final class TourHistoryRecorder {

  private TourHistoryRecorder() {}

  public static void main(String[] args) throws Exception {
    Path target =
        Path.of(args.length > 0 ? args[0] : "workflow-definitions/src/test/resources/histories");
    String name = args.length > 1 ? args[1] : "local-tour-crm-calls-local";
    Files.createDirectories(target);
    RunInput input = input(name, InterpreterChanges.CHANGES);
    try (TestWorkflowEnvironment env =
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder().setUseTimeskipping(false))) {
      InMemoryRecorder recorder = new InMemoryRecorder();
      Crm crm = new Crm();
      Worker automation = env.newWorker(TaskQueues.AUTOMATION);
      automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
      automation.registerActivitiesImplementations(recorder, crm);
      env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder, crm);
      env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(crm);
      env.start();
      WorkflowClient client = env.getWorkflowClient();
      String workflowId = AutomationRunWorkflow.workflowId(input.runId());
      client
          .newWorkflowStub(
              AutomationRunWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setTaskQueue(TaskQueues.AUTOMATION)
                  .setWorkflowId(workflowId)
                  .build())
          .run(input);
      Files.writeString(
          target.resolve(name + ".json"), client.fetchHistory(workflowId).toJson(true));
    }
  }

  /** The tour's run for contact "c", started with the changes given. */
  static RunInput input(String runId, List<String> startedWithChanges) {
    return RunInputBuilder.run(runId, tour())
        .payload(Map.of("contact_id", "c", "source", "tour"))
        .contact(Map.of("contact_id", "c", "first_name", "Ada", "email", "ada@example.com"))
        .embedded()
        .startedWithChanges(startedWithChanges)
        .build();
  }

  /** The README's tour, its delay shortened to a second. */
  static Canvas tour() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
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
                Map.of("subject", "Welcome, {{contact.first_name}}", "body", "Glad to have you."))),
        List.of(edge("hook", "mark"), edge("mark", "pause"), edge("pause", "welcome")));
  }

  private static CanvasNode node(String id, String type, Map<String, Object> config) {
    return new CanvasNode(id, type, new Position(0, 0), new NodeData(id, config));
  }

  private static CanvasEdge edge(String source, String target) {
    return new CanvasEdge(source + ">" + target, source, target, "default", null);
  }

  /** api-server's crm side and the SMTP send, answering as they would for contact "c". */
  private static final class Crm
      implements CrmRecordActivities, EmailBookActivities, EmailActivities {

    @Override
    public Map<String, Object> update(CrmWrite write) {
      return Map.of("entity_type", write.entityType(), "id", write.recordId());
    }

    @Override
    public Map<String, Object> create(CrmWrite write) {
      return Map.of("entity_type", write.entityType(), "id", "new-1");
    }

    @Override
    public EmailContext context(String tenantId, String contactId, String templateId) {
      return new EmailContext(
          Map.of(
              "contact_id",
              contactId,
              "email",
              "ada@example.com",
              "first_name",
              "Ada",
              "lifecycle_stage",
              "lead"),
          null,
          null,
          null);
    }

    @Override
    public void record(
        String tenantId, String runId, String nodeId, EmailMessage message, String status) {}

    @Override
    public EmailReceipt send(EmailMessage message) {
      return new EmailReceipt(EmailReceipt.SENT, message.messageId());
    }
  }
}
