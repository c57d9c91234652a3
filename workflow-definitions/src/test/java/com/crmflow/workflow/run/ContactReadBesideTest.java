package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.action.ChatActivities;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.action.EmailContext;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunResult;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A chat_message beside an email: the email reads the contact afresh while the chat's post is under
 * way. The chat's log entry shows the contact it ran with, the email's the contact it read ({@value
 * InterpreterChanges#NODE_INPUT_CONTACT}).
 */
@Timeout(60)
class ContactReadBesideTest {

  @ParameterizedTest(name = "{0} activities")
  @ValueSource(strings = {"local", "remote"})
  void aNodeBesideAnEmailShowsTheContactItRanWithNotTheOneTheEmailRead(String activities)
      throws Exception {
    try (TestWorkflowEnvironment env = WorkflowTestEnvironments.newInstance()) {
      RunInput input = input("beside-" + activities, activities.equals("local"));
      InMemoryRecorder recorder = run(env, input);

      assertThat(recorder.finished).containsEntry(input.runId(), RunResult.COMPLETED);
      Map<String, NodeLogEntry> entries = new java.util.HashMap<>();
      recorder.log(input.runId()).forEach(e -> entries.put(e.nodeId(), e));
      assertThat(entries.get("say").input())
          .isEqualTo(
              Map.of(
                  "config",
                  Map.of("channel", "#sales", "messageTemplate", "For old@example.com"),
                  "read",
                  Map.of("contact.email", "old@example.com")));
      assertThat(entries.get("mail").input())
          .isEqualTo(
              Map.of(
                  "config",
                  Map.of("subject", "Hi new@example.com"),
                  "read",
                  Map.of("contact.email", "new@example.com")));
      WorkflowExecutionHistory history =
          env.getWorkflowClient().fetchHistory(AutomationRunWorkflow.workflowId(input.runId()));
      // through the crm queue the entries are in history: the run asks the change's version
      if (activities.equals("local")) {
        assertThat(versionMarkers(history)).doesNotContain(InterpreterChanges.NODE_INPUT_CONTACT);
      } else {
        assertThat(versionMarkers(history)).contains(InterpreterChanges.NODE_INPUT_CONTACT);
      }
      WorkflowReplayer.replayWorkflowExecution(history, AutomationRunWorkflowImpl.class);
    }
  }

  /** hook → say (chat_message) and hook → mail (email), for contact "c". */
  static Canvas canvas() {
    return new Canvas(
        List.of(
            Canvases.node("hook", "webhook_trigger", Map.of()),
            Canvases.node(
                "say",
                "chat_message",
                Map.of("channel", "#sales", "messageTemplate", "For {{contact.email}}")),
            Canvases.node("mail", "email", Map.of("subject", "Hi {{contact.email}}"))),
        List.of(Canvases.edge("hook", "say"), Canvases.edge("hook", "mail")));
  }

  static RunInput input(String runId, boolean local) {
    RunInputBuilder builder =
        RunInputBuilder.run(runId, canvas())
            .payload(Map.of("contact_id", "c"))
            .contact(Map.of("contact_id", "c", "email", "old@example.com"))
            .inlineChains(true);
    return (local ? builder.embedded() : builder).build();
  }

  /**
   * Runs the input to its end on the environment: the chat's post waits until the email is sent,
   * which is after the email read the contact.
   */
  static InMemoryRecorder run(TestWorkflowEnvironment env, RunInput input) throws Exception {
    InMemoryRecorder recorder = new InMemoryRecorder();
    Crm crm = new Crm();
    Worker automation = env.newWorker(TaskQueues.AUTOMATION);
    automation.registerWorkflowImplementationTypes(AutomationRunWorkflowImpl.class);
    automation.registerActivitiesImplementations(recorder, crm);
    env.newWorker(TaskQueues.CRM).registerActivitiesImplementations(recorder, crm);
    env.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(crm);
    env.start();
    env.getWorkflowClient()
        .newWorkflowStub(
            AutomationRunWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.AUTOMATION)
                .setWorkflowId(AutomationRunWorkflow.workflowId(input.runId()))
                .build())
        .run(input);
    return recorder;
  }

  private static List<String> versionMarkers(WorkflowExecutionHistory history) {
    return history.getEvents().stream()
        .filter(HistoryEvent::hasMarkerRecordedEventAttributes)
        .map(HistoryEvent::getMarkerRecordedEventAttributes)
        .filter(m -> m.getMarkerName().equals("Version"))
        .map(m -> m.getDetailsOrThrow("changeId").getPayloads(0).getData().toStringUtf8())
        .map(id -> id.substring(1, id.length() - 1))
        .toList();
  }

  /** The crm side and the SMTP send; the contact as it is now has another email. */
  private static final class Crm implements ChatActivities, EmailBookActivities, EmailActivities {

    private final CompletableFuture<Void> sent = new CompletableFuture<>();

    @Override
    public Map<String, Object> post(
        String tenantId, String channel, String text, String runId, String nodeId) {
      try {
        sent.get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("the email was not sent", e);
      }
      return Map.of("ok", true, "channel", channel, "ts", "1.5");
    }

    @Override
    public EmailContext context(String tenantId, String contactId, String templateId) {
      return new EmailContext(
          Map.of("contact_id", contactId, "email", "new@example.com"), null, null, null);
    }

    @Override
    public void record(
        String tenantId, String runId, String nodeId, EmailMessage message, String status) {}

    @Override
    public EmailReceipt send(EmailMessage message) {
      sent.complete(null);
      return new EmailReceipt(EmailReceipt.SENT, message.messageId());
    }
  }

  /**
   * Records the distributed run's history for {@link HistoryReplayTest}: {@code
   * remote-contact-read-beside.json} (the path of a run without {@value
   * InterpreterChanges#NODE_INPUT_CONTACT}, recorded by this class against the interpreter of
   * 67c1414, the commit before it) and {@code remote-contact-read-beside-as-ran.json} (with it).
   * Run like {@link HistoryRecorder}, with this class as the main class and the file's name as the
   * second argument.
   */
  public static void main(String[] args) throws Exception {
    Path target =
        Path.of(args.length > 0 ? args[0] : "workflow-definitions/src/test/resources/histories");
    String name = args.length > 1 ? args[1] : "remote-contact-read-beside-as-ran";
    try (TestWorkflowEnvironment env = WorkflowTestEnvironments.newInstance()) {
      run(env, input(name, false));
      Files.writeString(
          target.resolve(name + ".json"),
          env.getWorkflowClient()
              .fetchHistory(AutomationRunWorkflow.workflowId(name))
              .toJson(true));
    }
  }
}
