package com.crmflow.api.enrollment;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.run.RunRepository;
import com.crmflow.api.run.RunStarter;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.RunHistory;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.workflow.enrollment.EnrollmentWorkflow;
import io.temporal.api.common.v1.Priority;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** POST /sequences/enroll and /unenroll, GET /sequences/:id/enrollments, and their workflows. */
class EnrollmentApiTest extends ApiTest {

  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
  }

  private String contact(String email, boolean doNotEmail) {
    return tenant
        .api()
        .post(
            "/api/v1/contacts",
            Map.of("email", email, "first_name", "Ada", "do_not_email", doNotEmail))
        .text("/contact/id");
  }

  private String activeSequence(Map<String, Object> canvas) {
    String id = sequence(tenant.api(), "Onboarding " + UUID.randomUUID());
    assertThat(tenant.api().put("/api/sequences/" + id + "/canvas", canvas).status())
        .isEqualTo(200);
    ApiResponse active = tenant.api().patch("/api/v1/sequences/" + id, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    return id;
  }

  /** welcome email → 1-day delay → follow-up email. */
  private String waitingSequence() {
    return activeSequence(
        canvas(
            List.of(
                node("welcome", "email", Map.of("subject", "Welcome {{contact.first_name}}")),
                node("wait", "delay", Map.of("delayDays", 1)),
                node("follow", "email", Map.of("subject", "Following up"))),
            List.of(edge("e1", "welcome", "wait"), edge("e2", "wait", "follow"))));
  }

  private ApiResponse enroll(String sequenceId, String contactId) {
    return tenant
        .api()
        .post(
            "/api/v1/sequences/enroll", Map.of("sequence_id", sequenceId, "contact_id", contactId));
  }

  private ApiResponse unenroll(String sequenceId, String contactId) {
    return tenant
        .api()
        .post(
            "/api/v1/sequences/unenroll",
            Map.of("sequence_id", sequenceId, "contact_id", contactId));
  }

  private JsonNode enrollments(String sequenceId) {
    return tenant.api().get("/api/v1/sequences/" + sequenceId + "/enrollments").json();
  }

  /** The sequence's enrollment once its current step is the delay "wait". */
  private JsonNode awaitWaitingOnTheDelay(String sequenceId) {
    return await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> enrollments(sequenceId).at("/enrollments/0"),
            e -> "wait".equals(e.at("/current_step/node_id").asString()));
  }

  private JsonNode awaitEnrollmentStatus(String sequenceId, String status) {
    JsonNode[] listed = new JsonNode[1];
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> {
              listed[0] = enrollments(sequenceId).at("/enrollments/0");
              return status.equals(listed[0].path("status").asString());
            });
    return listed[0];
  }

  @Test
  void enrollRunsTheStepsWithContactVariablesAndCompletes() {
    String contactId = contact("ada@example.com", false);
    String sequenceId =
        activeSequence(
            canvas(
                List.of(
                    node("welcome", "email", Map.of("subject", "Welcome {{contact.first_name}}"))),
                List.of()));

    ApiResponse enrolled =
        tenant
            .api()
            .post(
                "/api/v1/sequences/enroll",
                Map.of("sequence_id", sequenceId, "contact_email", "ADA@example.com"));

    assertThat(enrolled.status()).as(enrolled.toString()).isEqualTo(201);
    assertThat(enrolled.at("/enrollment/sequence_id").asString()).isEqualTo(sequenceId);
    assertThat(enrolled.at("/enrollment/contact_id").asString()).isEqualTo(contactId);
    assertThat(enrolled.at("/enrollment/status").asString()).isEqualTo("active");
    assertThat(enrolled.at("/sequence_name").asString()).startsWith("Onboarding ");
    String enrollmentId = enrolled.text("/enrollment/id");

    JsonNode done = awaitEnrollmentStatus(sequenceId, "completed");
    assertThat(done.get("id").asString()).isEqualTo(enrollmentId);
    assertThat(done.at("/current_step/node_id").asString()).isEqualTo("welcome");
    assertThat(done.at("/current_step/status").asString()).isEqualTo("completed");
    assertThat(done.get("ended_at").isNull()).isFalse();

    String runId = done.get("run_id").asString();
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).isEqualTo("completed");
    assertThat(run.get("enrollment_id").asString()).isEqualTo(enrollmentId);
    assertThat(run.get("workflow_id").asString())
        .isEqualTo("enrollment-" + tenant.id() + "-" + sequenceId + "-" + contactId);
    JsonNode email = tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).json();
    assertThat(email.at("/outbound_emails/0/to_address").asString()).isEqualTo("ada@example.com");
    assertThat(email.at("/outbound_emails/0/subject").asString()).isEqualTo("Welcome Ada");

    List<JsonNode> enrolledEvents = events(tenant.id(), "sequence.enrolled");
    assertThat(enrolledEvents).hasSize(1);
    assertThat(enrolledEvents.get(0).at("/data/enrollment_id").asString()).isEqualTo(enrollmentId);
    assertThat(enrolledEvents.get(0).at("/data/contact_id").asString()).isEqualTo(contactId);
    assertThat(enrolledEvents.get(0).at("/data/email").isMissingNode())
        .as("a sequence event names the contact by id only")
        .isTrue();
    List<JsonNode> completed = events(tenant.id(), "sequence.completed");
    assertThat(completed).hasSize(1);
    assertThat(completed.get(0).at("/data/contact_id").asString()).isEqualTo(contactId);
  }

  /**
   * An enrolled run's workflow takes turns in Temporal under a fairness key of its own beside its
   * tenant's triggered runs (so a bulk enrollment's delays ending together do not queue the
   * tenant's triggers behind them), at half their weight.
   */
  @Test
  void anEnrolledRunTakesTurnsUnderAFairnessKeyOfItsOwnBesideItsTenantsTriggeredRuns() {
    String contactId = contact("ada@example.com", false);
    String sequenceId =
        activeSequence(
            canvas(List.of(node("welcome", "email", Map.of("subject", "Hi"))), List.of()));
    tenant
        .api()
        .post(
            "/api/v1/sequences/enroll", Map.of("sequence_id", sequenceId, "contact_id", contactId));
    String enrolledRun = awaitEnrollmentStatus(sequenceId, "completed").get("run_id").asString();
    String hook = "hook-" + UUID.randomUUID();
    activeAutomation(
        tenant.api(), Flows.chain(hook, node("hello", "email", Map.of("subject", "Hello"))));
    String triggeredRun =
        SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));

    Priority enrolled = priorityOf(awaitRun(tenant.api(), enrolledRun));
    Priority triggered = priorityOf(awaitRun(tenant.api(), triggeredRun));

    assertThat(enrolled.getFairnessKey()).isEqualTo(tenant.id() + "/enrollments");
    assertThat(enrolled.getFairnessWeight()).isEqualTo(0.5f);
    assertThat(triggered.getFairnessKey()).isEqualTo(tenant.id().toString());
    assertThat(triggered.getFairnessWeight()).as("the default weight (unset)").isZero();
  }

  /** The Temporal priority the run's workflow was started with. */
  private Priority priorityOf(JsonNode run) {
    return RunHistory.describe(temporal, run.get("workflow_id").asString()).getPriority();
  }

  @Test
  void fiftyConcurrentEnrollmentsMakeOneEnrollmentAndOneRun() throws Exception {
    String contactId = contact("bob@example.com", false);
    String sequenceId = waitingSequence();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    List<Callable<ApiResponse>> calls = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      calls.add(() -> enroll(sequenceId, contactId));
    }
    List<String> ids = new ArrayList<>();
    for (Future<ApiResponse> answer : pool.invokeAll(calls)) {
      ApiResponse response = answer.get();
      assertThat(response.status()).as(response.toString()).isEqualTo(201);
      assertThat(response.text("/enrollment/status")).isEqualTo("active");
      ids.add(response.text("/enrollment/id"));
    }
    pool.shutdown();

    assertThat(ids).containsOnly(ids.get(0));
    assertThat(
            tenant
                .api()
                .get("/api/v1/automation-runs?sequence_id=" + sequenceId)
                .at("/total")
                .asInt())
        .isEqualTo(1);
    assertThat(events(tenant.id(), "sequence.enrolled")).hasSize(1);

    JsonNode waiting =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () -> enrollments(sequenceId).at("/enrollments/0"),
                e -> "delay".equals(e.at("/current_step/node_type").asString()));
    assertThat(enrollments(sequenceId).at("/total").asInt()).isEqualTo(1);
    assertThat(waiting.at("/current_step/node_id").asString()).isEqualTo("wait");
    assertThat(waiting.at("/current_step/status").asString()).isEqualTo("running");
    Instant next = Instant.parse(waiting.get("next_step_at").asString());
    assertThat(next)
        .isBetween(
            Instant.now().plus(Duration.ofHours(23)), Instant.now().plus(Duration.ofHours(25)));

    ApiResponse again = enroll(sequenceId, contactId);
    assertThat(again.text("/enrollment/id")).isEqualTo(ids.get(0));
    assertThat(events(tenant.id(), "sequence.enrolled")).hasSize(1);
  }

  @Test
  void unenrollMidDelayStopsFurtherStepsAndReenrollStartsAgain() {
    String contactId = contact("carol@example.com", false);
    String sequenceId = waitingSequence();
    String enrollmentId = enroll(sequenceId, contactId).text("/enrollment/id");
    JsonNode waiting = awaitWaitingOnTheDelay(sequenceId);
    String firstRun = waiting.get("run_id").asString();

    ApiResponse unenrolled = unenroll(sequenceId, contactId);

    assertThat(unenrolled.status()).as(unenrolled.toString()).isEqualTo(200);
    assertThat(unenrolled.text("/enrollment/status")).isEqualTo("unenrolled");
    assertThat(unenrolled.text("/enrollment/id")).isEqualTo(enrollmentId);
    JsonNode run = awaitRun(tenant.api(), firstRun);
    assertThat(run.get("status").asString()).isEqualTo("cancelled");
    assertThat(run.at("/node_log").size()).isEqualTo(2); // welcome, wait: never the follow-up
    JsonNode emails = tenant.api().get("/api/v1/outbound-emails?run_id=" + firstRun).json();
    assertThat(emails.at("/total").asInt()).isEqualTo(1);
    assertThat(emails.at("/outbound_emails/0/subject").asString()).isEqualTo("Welcome Ada");
    assertThat(events(tenant.id(), "sequence.unenrolled")).hasSize(1);
    assertThat(unenroll(sequenceId, contactId).status()).isEqualTo(409);

    ApiResponse again = enroll(sequenceId, contactId);
    assertThat(again.text("/enrollment/id")).isEqualTo(enrollmentId);
    assertThat(again.text("/enrollment/status")).isEqualTo("active");
    JsonNode restarted = awaitWaitingOnTheDelay(sequenceId);
    assertThat(restarted.get("run_id").asString()).isNotEqualTo(firstRun);
    assertThat(restarted.get("status").asString()).isEqualTo("active");
    assertThat(events(tenant.id(), "sequence.enrolled")).hasSize(2);
    assertThat(
            tenant
                .api()
                .get("/api/v1/sequences/" + sequenceId + "/enrollments?status=unenrolled")
                .at("/total")
                .asInt())
        .isZero();
  }

  @Autowired private RunStarter starter;
  @Autowired private RunRepository runs;
  @Autowired private WorkflowClient temporal;

  @Test
  void anEnrollmentUnenrolledBeforeItsWorkflowStartedIsNeverStarted() {
    String contactId = contact("dora@example.com", false);
    String sequenceId = waitingSequence();
    // enrolled, its run's start still on its way (in the start pool); created "later" so that
    // the reconciler leaves it to this test
    UUID enrollmentId = UUID.randomUUID();
    UUID runId = UUID.randomUUID();
    String workflowId =
        EnrollmentWorkflow.workflowId(tenant.id().toString(), sequenceId, contactId);
    jdbc.sql(
            """
            insert into enrollment (id, tenant_id, sequence_id, contact_id, run_id)
            values (:id, :t, :s, :c, :r)
            """)
        .param("id", enrollmentId)
        .param("t", tenant.id())
        .param("s", UUID.fromString(sequenceId))
        .param("c", UUID.fromString(contactId))
        .param("r", runId)
        .update();
    jdbc.sql(
            """
            insert into automation_run (id, tenant_id, sequence_id, canvas_version,
                trigger_node_id, start_node_id, trigger_payload, workflow_id, enrollment_id,
                created_at)
            values (:id, :t, :s, 1, 'welcome', 'welcome', '{}', :w, :e, now() + interval '1 hour')
            """)
        .param("id", runId)
        .param("t", tenant.id())
        .param("s", UUID.fromString(sequenceId))
        .param("w", workflowId)
        .param("e", enrollmentId)
        .update();

    ApiResponse unenrolled = unenroll(sequenceId, contactId);
    assertThat(unenrolled.status()).as(unenrolled.toString()).isEqualTo(200);
    assertThat(unenrolled.text("/enrollment/status")).isEqualTo("unenrolled");
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
        .as("the run is over too, so the reconciler leaves it")
        .isEqualTo("cancelled");

    // the start that was on its way comes after the unenroll
    assertThat(starter.start(runs.find(tenant.id(), runId).orElseThrow())).isTrue();

    assertThatThrownBy(() -> temporal.newUntypedWorkflowStub(workflowId).describe())
        .as("never started")
        .isInstanceOf(WorkflowNotFoundException.class);
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                tenant
                        .api()
                        .get("/api/v1/outbound-emails?run_id=" + runId)
                        .json()
                        .at("/total")
                        .asInt()
                    == 0);
    assertThat(events(tenant.id(), "sequence.unenrolled")).hasSize(1);

    // enrolled again: a new run, started as usual
    ApiResponse again = enroll(sequenceId, contactId);
    assertThat(again.text("/enrollment/status")).isEqualTo("active");
    JsonNode restarted = awaitWaitingOnTheDelay(sequenceId);
    assertThat(restarted.get("run_id").asString()).isNotEqualTo(runId.toString());
  }

  @Test
  void retryOfAFailedEnrollmentRunCarriesTheEnrollmentOnWithoutRepeatingDoneSteps() {
    try (LocalHttpServer crm = new LocalHttpServer()) {
      crm.answer("/sync", 400, "{\"error\": \"no such contact\"}");
      String contactId = contact("dora@example.com", false);
      String sequenceId = syncingSequence(crm);
      String enrollmentId = enroll(sequenceId, contactId).text("/enrollment/id");
      JsonNode failed = awaitEnrollmentStatus(sequenceId, "failed");
      String failedRun = failed.get("run_id").asString();

      crm.answer("/sync", 200, "{\"ok\": true}");
      ApiResponse retry =
          tenant.api().post("/api/v1/automation-runs/" + failedRun + "/retry", Map.of());

      assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
      String retryRun = retry.text("/run/id");
      assertThat(retry.text("/run/retry_of")).isEqualTo(failedRun);
      assertThat(retry.text("/run/enrollment_id")).isEqualTo(enrollmentId);
      assertThat(retry.text("/run/workflow_id"))
          .isEqualTo("enrollment-" + tenant.id() + "-" + sequenceId + "-" + contactId);
      JsonNode done = awaitEnrollmentStatus(sequenceId, "completed");
      assertThat(done.get("id").asString()).isEqualTo(enrollmentId);
      assertThat(done.get("run_id").asString()).isEqualTo(retryRun);
      assertThat(done.at("/current_step/node_id").asString()).isEqualTo("sync");
      JsonNode rerun = awaitRun(tenant.api(), retryRun);
      assertThat(rerun.get("status").asString()).isEqualTo("completed");
      assertThat(rerun.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
          .containsExactly("sync");
      assertThat(crm.received("/sync").get(1).body())
          .as("the contact's variables, as in the first run")
          .isEqualTo("{\"email\": \"dora@example.com\"}");
      assertThat(
              tenant.api().get("/api/v1/outbound-emails?run_id=" + retryRun).at("/total").asInt())
          .as("the welcome email went out in the failed run, not again")
          .isZero();
      assertThat(events(tenant.id(), "sequence.completed")).hasSize(1);
      assertThat(events(tenant.id(), "sequence.enrolled")).hasSize(1);
    }
  }

  @Test
  void aFailedRunWhoseContactWasEnrolledAgainIsNotRetried() {
    try (LocalHttpServer crm = new LocalHttpServer()) {
      crm.answer("/sync", 400, "{\"error\": \"no such contact\"}");
      String contactId = contact("erin@example.com", false);
      String sequenceId = syncingSequence(crm);
      enroll(sequenceId, contactId);
      String failedRun = awaitEnrollmentStatus(sequenceId, "failed").get("run_id").asString();
      enroll(sequenceId, contactId);
      JsonNode again = awaitEnrollmentStatus(sequenceId, "failed");
      String newerRun = again.get("run_id").asString();
      assertThat(newerRun).isNotEqualTo(failedRun);

      ApiResponse refused =
          tenant.api().post("/api/v1/automation-runs/" + failedRun + "/retry", Map.of());

      assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
      assertThat(refused.text("/detail")).contains("enrolled again");
      JsonNode unchanged = enrollments(sequenceId).at("/enrollments/0");
      assertThat(unchanged.get("status").asString()).isEqualTo("failed");
      assertThat(unchanged.get("run_id").asString()).isEqualTo(newerRun);
      assertThat(
              tenant
                  .api()
                  .get("/api/v1/automation-runs?sequence_id=" + sequenceId)
                  .at("/total")
                  .asInt())
          .as("no retry run inserted")
          .isEqualTo(2);
      assertThat(crm.received("/sync")).hasSize(2);
    }
  }

  /** welcome email → http_request POST to the CRM's /sync with the contact's email. */
  private String syncingSequence(LocalHttpServer crm) {
    return activeSequence(
        canvas(
            List.of(
                node("welcome", "email", Map.of("subject", "Welcome {{contact.first_name}}")),
                node(
                    "sync",
                    "http_request",
                    Map.of(
                        "method",
                        "POST",
                        "url",
                        crm.url("/sync"),
                        "bodyTemplate",
                        "{\"email\": \"{{contact.email}}\"}"))),
            List.of(edge("e1", "welcome", "sync"))));
  }

  @Test
  void doNotEmailContactsSkipTheEmailStepsAndStillComplete() {
    contact("quiet@example.com", true);
    String sequenceId =
        activeSequence(
            canvas(
                List.of(
                    node("welcome", "email", Map.of("subject", "Welcome")),
                    node("wait", "delay", Map.of("delayHours", 0.0003))),
                List.of(edge("e1", "welcome", "wait"))));

    tenant
        .api()
        .post(
            "/api/v1/sequences/enroll",
            Map.of("sequence_id", sequenceId, "contact_email", "quiet@example.com"));

    JsonNode done = awaitEnrollmentStatus(sequenceId, "completed");
    JsonNode run = awaitRun(tenant.api(), done.get("run_id").asString());
    assertThat(run.at("/node_log/0/status").asString()).isEqualTo("skipped");
    assertThat(run.at("/node_log/0/output/skipped").asString())
        .isEqualTo("contact has do_not_email");
    assertThat(run.at("/node_log/1/status").asString()).isEqualTo("completed");
    assertThat(
            tenant
                .api()
                .get("/api/v1/outbound-emails?run_id=" + done.get("run_id").asString())
                .at("/total")
                .asInt())
        .isZero();
  }

  @Test
  void badRequestsAreRefusedNamingTheProblemAndChangeNothing() {
    String contactId = contact("dan@example.com", false);
    String sequenceId = waitingSequence();
    String draft = sequence(tenant.api(), "Draft");
    String automation =
        activeAutomation(tenant.api(), Flows.completeAutomation("hook-" + UUID.randomUUID()));
    TenantClient other = newTenant();
    String othersContact =
        other.api().post("/api/v1/contacts", Map.of("email", "x@example.com")).text("/contact/id");

    ApiResponse missing = tenant.api().post("/api/v1/sequences/enroll", Map.of());
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.at("/errors").toString()).contains("sequence_id");
    ApiResponse both =
        tenant
            .api()
            .post(
                "/api/v1/sequences/enroll",
                Map.of(
                    "sequence_id", sequenceId, "contact_id", contactId, "contact_email", "a@b.c"));
    assertThat(both.status()).isEqualTo(400);
    ApiResponse unknownField =
        tenant
            .api()
            .post(
                "/api/v1/sequences/enroll",
                Map.of("sequence_id", sequenceId, "contact_id", contactId, "step", 2));
    assertThat(unknownField.status()).isEqualTo(400);
    assertThat(unknownField.at("/errors/0/field").asString()).isEqualTo("step");
    ApiResponse notUuid = enroll("nope", contactId);
    assertThat(notUuid.status()).isEqualTo(400);

    ApiResponse unknownContact = enroll(sequenceId, UUID.randomUUID().toString());
    assertThat(unknownContact.status()).isEqualTo(422);
    assertThat(unknownContact.at("/errors/0/field").asString()).isEqualTo("contact_id");
    ApiResponse unknownEmail =
        tenant
            .api()
            .post(
                "/api/v1/sequences/enroll",
                Map.of("sequence_id", sequenceId, "contact_email", "nobody@example.com"));
    assertThat(unknownEmail.status()).isEqualTo(422);
    assertThat(unknownEmail.at("/errors/0/message").asString()).contains("nobody@example.com");
    assertThat(enroll(sequenceId, othersContact).status()).isEqualTo(422);
    assertThat(enroll(draft, contactId).status()).isEqualTo(422);
    ApiResponse toAutomation = enroll(automation, contactId);
    assertThat(toAutomation.status()).isEqualTo(422);
    assertThat(toAutomation.at("/detail").asString()).contains("automation");
    assertThat(
            other
                .api()
                .post(
                    "/api/v1/sequences/enroll",
                    Map.of("sequence_id", sequenceId, "contact_id", othersContact))
                .status())
        .isEqualTo(422);

    assertThat(enrollments(sequenceId).at("/total").asInt()).isZero();
    assertThat(events(tenant.id(), "sequence.enrolled")).isEmpty();
    assertThat(
            jdbc.sql("select count(*) from enrollment where tenant_id = :t")
                .param("t", tenant.id())
                .query(Long.class)
                .single())
        .isZero();

    ApiResponse notEnrolled = unenroll(sequenceId, contactId);
    assertThat(notEnrolled.status()).isEqualTo(404);
    assertThat(other.api().get("/api/v1/sequences/" + sequenceId + "/enrollments").status())
        .isEqualTo(404);
  }
}
