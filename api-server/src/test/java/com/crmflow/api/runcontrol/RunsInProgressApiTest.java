package com.crmflow.api.runcontrol;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.ReleaseGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * What a flow's pause and archive do to its runs in progress, on the real service: they go on
 * (continue), hold before their next node until the flow is active again (hold), or end cancelled
 * with the reason (end), each run at a safe point; the answer says to how many runs it applies.
 */
class RunsInProgressApiTest extends ApiTest {

  @Autowired private JdbcClient jdbc;

  private TenantClient tenant;
  private String contactId;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "ada@example.com", "first_name", "Ada"))
            .text("/contact/id");
  }

  /** webhook → wait (the delay given) → mail (an email to the run's contact); its id. */
  private Flow waitThenEmail(Map<String, Object> delay) {
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(),
            chain(
                hook,
                node("wait", "delay", delay),
                node(
                    "mail",
                    "email",
                    Map.of("subject", "Hi {{contact.first_name}}", "body", "Hi"))));
    return new Flow(flow, hook);
  }

  /** webhook → a gate the test opens ({@link ReleaseGate}) → mail, as above; its id. */
  private Flow gateThenEmail() {
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(),
            ReleaseGate.chain(
                hook,
                node(
                    "mail",
                    "email",
                    Map.of("subject", "Hi {{contact.first_name}}", "body", "Hi"))));
    return new Flow(flow, hook);
  }

  private record Flow(String id, String hook) {}

  /** Fires the flow and returns the run's id once its wait (a delay or a gate) has started. */
  private String fireAndAwaitDelay(Flow flow) {
    String runId = fire(anonymous(), tenant.id(), flow.hook(), Map.of("contact_id", contactId));
    await().atMost(Patience.EVENTUALLY).until(() -> entry(runId, "wait").isPresent());
    return runId;
  }

  private String status(String runId, String nodeId) {
    return entry(runId, nodeId).map(e -> e.get("status").asString()).orElse("");
  }

  private Optional<JsonNode> entry(String runId, String nodeId) {
    JsonNode log = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run/node_log");
    return StreamSupport.stream(log.spliterator(), false)
        .filter(e -> nodeId.equals(e.get("nodeId").asString()))
        .findFirst();
  }

  private List<String> nodeIds(JsonNode run) {
    List<String> ids = new ArrayList<>();
    run.get("node_log").forEach(e -> ids.add(e.get("nodeId").asString()));
    return ids;
  }

  private int emailsOf(String runId) {
    return tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).at("/total").asInt();
  }

  /** The run control jobs stored for the flow. */
  private long controlJobs(Flow flow) {
    return jdbc.sql("select count(*) from run_control_job where sequence_id = cast(:id as uuid)")
        .param("id", flow.id())
        .query(Long.class)
        .single();
  }

  private ApiResponse setStatus(String flow, Map<String, Object> body) {
    return tenant.api().patch("/api/v1/sequences/" + flow, body);
  }

  @Test
  void pausedWithoutInFlightItsRunsContinueAndSendTheirEmail() {
    Flow flow = gateThenEmail();
    String runId = fireAndAwaitDelay(flow);
    ReleaseGate.awaitWaiting(jdbc, runId);

    ApiResponse paused = setStatus(flow.id(), Map.of("status", "paused"));

    assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
    assertThat(paused.at("/sequence/status").asString()).isEqualTo("paused");
    assertThat(paused.at("/in_flight/action").asString()).isEqualTo("continue");
    assertThat(paused.at("/in_flight/runs").asLong()).isEqualTo(1);
    ReleaseGate.open(tenant.api(), contactId);
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(emailsOf(runId)).isEqualTo(1);
    assertThat(controlJobs(flow)).as("continue asks nothing of the runs").isZero();
  }

  @Test
  void heldRunsFinishTheirWaitHoldAndSendTheirEmailOnceWhenTheFlowIsActiveAgain() {
    Flow flow = gateThenEmail();
    String runId = fireAndAwaitDelay(flow);
    ReleaseGate.awaitWaiting(jdbc, runId);
    assertThat(status(runId, "wait")).isEqualTo("running");

    ApiResponse paused = setStatus(flow.id(), Map.of("status", "paused", "in_flight", "hold"));

    assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
    assertThat(paused.at("/in_flight/action").asString()).isEqualTo("hold");
    assertThat(paused.at("/in_flight/runs").asLong()).isEqualTo(1);
    // the wait ends while the run is held (a delay does the same: RunControlTest, in the engine's
    // tests): it holds before the email, which is not sent
    ReleaseGate.openAfterAsks(jdbc, tenant.api(), flow.id(), contactId);
    await().atMost(Patience.EVENTUALLY).until(() -> status(runId, "mail"), "running"::equals);
    assertThat(entry(runId, "wait").orElseThrow().get("status").asString()).isEqualTo("completed");
    assertThat(entry(runId, "mail").orElseThrow().at("/output/held").asString())
        .isEqualTo("flow paused");
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).at("/run/status").asString())
        .isEqualTo("running");
    assertThat(emailsOf(runId)).isZero();

    ApiResponse resumed = setStatus(flow.id(), Map.of("status", "active"));

    assertThat(resumed.status()).as(resumed.toString()).isEqualTo(200);
    assertThat(resumed.at("/in_flight/action").asString()).isEqualTo("release");
    assertThat(resumed.at("/in_flight/runs").asLong()).isEqualTo(1);
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(nodeIds(run)).containsOnlyOnce("mail");
    assertThat(entry(runId, "mail").orElseThrow().get("status").asString()).isEqualTo("completed");
    assertThat(emailsOf(runId)).isEqualTo(1);
  }

  @Test
  void endedRunsStopWaitingAndEndCancelledWithTheReasonAndNoEmail() {
    Flow flow = waitThenEmail(Map.of("delayDays", 1));
    String first = fireAndAwaitDelay(flow);
    String second = fireAndAwaitDelay(flow);

    ApiResponse paused = setStatus(flow.id(), Map.of("status", "paused", "in_flight", "end"));

    assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
    assertThat(paused.at("/in_flight/action").asString()).isEqualTo("end");
    assertThat(paused.at("/in_flight/runs").asLong()).isEqualTo(2);
    for (String runId : List.of(first, second)) {
      JsonNode run = awaitRun(tenant.api(), runId);
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("cancelled");
      assertThat(run.get("error").asString()).isEqualTo("flow paused");
      JsonNode delay = entry(runId, "wait").orElseThrow();
      assertThat(delay.get("status").asString()).isEqualTo("skipped");
      assertThat(delay.at("/output/skipped").asString()).isEqualTo("flow paused");
      assertThat(nodeIds(run)).doesNotContain("mail");
      assertThat(emailsOf(runId)).isZero();
    }
  }

  @Test
  void aSequencesEnrollmentsWaitingInADelayEndWithItsPauseAndATestRunIsLeftToItsEnd() {
    String sequence = sequence(tenant.api(), "Onboarding " + uniqueId("s"));
    ApiResponse saved =
        tenant
            .api()
            .put(
                "/api/sequences/" + sequence + "/canvas",
                canvas(
                    List.of(
                        node("welcome", "email", Map.of("subject", "Welcome")),
                        node("wait", "delay", Map.of("delayDays", 1)),
                        node("mail", "email", Map.of("subject", "Following up"))),
                    List.of(edge("e1", "welcome", "wait"), edge("e2", "wait", "mail"))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    assertThat(setStatus(sequence, Map.of("status", "active")).status()).isEqualTo(200);
    ApiResponse enrolled =
        tenant
            .api()
            .post(
                "/api/v1/sequences/enroll",
                Map.of("sequence_id", sequence, "contact_id", contactId));
    assertThat(enrolled.status()).as(enrolled.toString()).isEqualTo(201);
    String runId =
        tenant
            .api()
            .get("/api/v1/sequences/" + sequence + "/enrollments")
            .text("/enrollments/0/run_id");
    await().atMost(Patience.EVENTUALLY).until(() -> entry(runId, "wait").isPresent());
    // a test run of the same sequence waits for nothing and is no run in progress of it
    ApiResponse tested =
        tenant
            .api()
            .post("/api/v1/sequences/" + sequence + "/test-runs", Map.of("contact_id", contactId));
    assertThat(tested.status()).as(tested.toString()).isEqualTo(201);

    ApiResponse paused = setStatus(sequence, Map.of("status", "paused", "in_flight", "end"));

    assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
    assertThat(paused.at("/in_flight/runs").asLong()).as(paused.toString()).isEqualTo(1);
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("cancelled");
    assertThat(run.get("error").asString()).isEqualTo("flow paused");
    assertThat(nodeIds(run)).doesNotContain("mail");
    JsonNode test = awaitRun(tenant.api(), tested.text("/run_id"));
    assertThat(test.get("status").asString()).as(test.toString()).isEqualTo("completed");
  }

  @Test
  void anArchivedFlowsRunsEndUnlessToldToContinue() {
    Flow flow = waitThenEmail(Map.of("delayDays", 1));
    String runId = fireAndAwaitDelay(flow);

    ApiResponse archived = setStatus(flow.id(), Map.of("status", "archived"));

    assertThat(archived.status()).as(archived.toString()).isEqualTo(200);
    assertThat(archived.at("/in_flight/action").asString()).isEqualTo("end");
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("cancelled");
    assertThat(run.get("error").asString()).isEqualTo("flow archived");
  }

  @Test
  void anUnknownInFlightIsAProblemNamingItAndChangesNothing() {
    Flow flow = waitThenEmail(Map.of("delayDays", 1));
    String runId = fireAndAwaitDelay(flow);

    for (Map<String, Object> body :
        List.of(
            Map.<String, Object>of("status", "paused", "in_flight", "stop"),
            Map.<String, Object>of("status", "paused", "in_flight", 3),
            Map.<String, Object>of("status", "archived", "in_flight", "hold"),
            Map.<String, Object>of("name", "Renamed", "in_flight", "end"))) {
      ApiResponse refused = setStatus(flow.id(), body);
      assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
      assertThat(refused.text("/errors/0/field")).as(refused.toString()).isEqualTo("in_flight");
    }

    JsonNode sequence = tenant.api().get("/api/v1/sequences/" + flow.id()).at("/sequence");
    assertThat(sequence.get("status").asString()).isEqualTo("active");
    assertThat(sequence.get("name").asString()).isNotEqualTo("Renamed");
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).at("/run/status").asString())
        .isEqualTo("running");
    assertThat(controlJobs(flow)).isZero();
  }
}
