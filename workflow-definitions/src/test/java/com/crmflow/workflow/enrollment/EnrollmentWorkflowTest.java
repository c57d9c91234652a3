package com.crmflow.workflow.enrollment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.action.EmailContext;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.run.Canvases;
import com.crmflow.workflow.run.InMemoryRecorder;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A three-step sequence with two-day delays, on the test server with time skipping. */
@Timeout(60)
class EnrollmentWorkflowTest {

  private static final Instant ENROLLED_AT = Instant.parse("2026-03-02T09:00:00Z");

  private TestWorkflowEnvironment env;
  private final InMemoryRecorder recorder = new InMemoryRecorder();
  private final List<Sent> sent = new CopyOnWriteArrayList<>();
  private boolean doNotEmail;

  record Sent(String subject, String to, Instant at) {}

  @BeforeEach
  void setUp() {
    env =
        WorkflowTestEnvironments.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(ENROLLED_AT));
    WorkerFactory factory = env.getWorkerFactory();
    factory
        .newWorker(TaskQueues.AUTOMATION)
        .registerWorkflowImplementationTypes(EnrollmentWorkflowImpl.class);
    factory
        .newWorker(TaskQueues.CRM)
        .registerActivitiesImplementations(recorder, new ContactBook());
    factory.newWorker(TaskQueues.INTEGRATIONS).registerActivitiesImplementations(new Outbox());
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private class ContactBook implements EmailBookActivities {
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
              "do_not_email",
              doNotEmail),
          null,
          null,
          null);
    }

    @Override
    public void record(
        String tenantId, String runId, String nodeId, EmailMessage message, String status) {}
  }

  private class Outbox implements EmailActivities {
    @Override
    public EmailReceipt send(EmailMessage message) {
      sent.add(
          new Sent(message.subject(), message.to(), Instant.ofEpochMilli(env.currentTimeMillis())));
      return new EmailReceipt(EmailReceipt.SENT, message.messageId());
    }
  }

  private WorkflowStub start(String runId) {
    EnrollmentWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                EnrollmentWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setTaskQueue(TaskQueues.AUTOMATION)
                    .setWorkflowId(EnrollmentWorkflow.workflowId("t", "s", "c-" + runId))
                    .build());
    WorkflowClient.start(
        workflow::run,
        RunInputBuilder.run(runId, Canvases.threeStepSequence())
            .tenant("t", "s")
            .startAt("step1")
            .payload(Map.of("contact_id", "c-" + runId))
            .contact(Map.of("contact_id", "c-" + runId, "first_name", "Ada"))
            .inlineChains(true)
            .build());
    return WorkflowStub.fromTyped(workflow);
  }

  @Test
  void threeStepsTwoDaysApartAreSentAtTheirTimes() {
    RunResult result = start("r1").getResult(RunResult.class);

    assertThat(result.status()).isEqualTo(RunResult.COMPLETED);
    assertThat(sent)
        .extracting(Sent::subject)
        .containsExactly("1: hello Ada", "2: still there?", "3: last call");
    assertThat(sent).extracting(Sent::to).containsOnly("ada@example.com");
    // the first step goes out on enrollment (plus the test worker's warm-up); each later one
    // exactly two days after the one before, to within the time the worker takes to act
    assertThat(Duration.between(ENROLLED_AT, sent.get(0).at())).isLessThan(Duration.ofSeconds(10));
    for (int i = 1; i < 3; i++) {
      Instant expected = sent.get(0).at().plus(Duration.ofDays(2L * i));
      assertThat(Duration.between(expected, sent.get(i).at()).abs())
          .as("step %d sent at %s, expected %s", i + 1, sent.get(i).at(), expected)
          .isLessThan(Duration.ofSeconds(1));
    }
    List<NodeLogEntry> log = recorder.log("r1");
    assertThat(log)
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("step1", "wait1", "step2", "wait2", "step3");
    assertThat(log).extracting(NodeLogEntry::status).containsOnly(RunResult.COMPLETED);
    assertThat(recorder.finished).containsEntry("r1", RunResult.COMPLETED);
  }

  @Test
  void unenrollingDuringTheFirstDelayStopsTheLaterSteps() {
    WorkflowStub enrollment = start("r2");
    env.sleep(Duration.ofDays(1));
    assertThat(sent).hasSize(1);

    enrollment.cancel();

    assertThatThrownBy(() -> enrollment.getResult(RunResult.class))
        .isInstanceOf(WorkflowFailedException.class);
    env.sleep(Duration.ofDays(5));
    assertThat(sent).extracting(Sent::subject).containsExactly("1: hello Ada");
    assertThat(recorder.finished).containsEntry("r2", RunResult.CANCELLED);
    assertThat(recorder.log("r2"))
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("step1", "wait1");
  }

  @Test
  void aDoNotEmailContactGetsEveryEmailStepSkipped() {
    doNotEmail = true;

    RunResult result = start("r3").getResult(RunResult.class);

    assertThat(result.status()).isEqualTo(RunResult.COMPLETED);
    assertThat(sent).isEmpty();
    assertThat(recorder.log("r3"))
        .filteredOn(e -> e.nodeType().equals("email"))
        .extracting(NodeLogEntry::status)
        .containsExactly(RunResult.SKIPPED, RunResult.SKIPPED, RunResult.SKIPPED);
  }
}
