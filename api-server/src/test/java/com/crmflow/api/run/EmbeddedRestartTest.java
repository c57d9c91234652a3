package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitNodeLog;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.embedded.EmbeddedInfrastructure;
import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.WholeService;
import com.crmflow.api.temporal.ClosedWorkflowSweep;
import com.crmflow.shared.outbound.CauseHeader;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The embedded defaults (PostgreSQL and the Temporal dev server as child processes) stopped and
 * started again on one data directory while runs wait: the dev server keeps every workflow and
 * timer in its SQLite file, so a waiting automation run and a three-step enrollment go on where
 * they stood, each step once.
 */
class EmbeddedRestartTest {

  /**
   * Longer than the set-up after the first wait starts plus a stop and a start, short for a test.
   */
  private static final Duration DELAY = Duration.ofSeconds(20);

  @Test
  void aRunWaitingOnADelayGoesOnAfterARestartWithoutRepeatingItsCall(@TempDir Path dataDir) {
    try (LocalHttpServer peer = new LocalHttpServer()) {
      peer.answer("/first", 200, "{\"n\": 5}");
      ApiTest.TenantClient tenant;
      String runId;
      JsonNode waiting;
      String sequenceId;
      try (ConfigurableApplicationContext first = WholeService.start(dataDir, new String[0])) {
        tenant = WholeService.newTenant(first);
        sequenceId = enrollInWaitingSequence(tenant.api());
        activeAutomation(
            tenant.api(),
            canvas(
                List.of(
                    node("hook", "webhook_trigger", Map.of()),
                    node(
                        "first",
                        "http_request",
                        Map.of("method", "GET", "url", peer.url("/first"))),
                    node("wait", "delay", Map.of("delayHours", DELAY.toMillis() / 3_600_000.0)),
                    node(
                        "second",
                        "http_request",
                        Map.of(
                            "method",
                            "POST",
                            "url",
                            peer.url("/second/{{http_request_1.body.n}}")))),
                List.of(
                    edge("e1", "hook", "first"),
                    edge("e2", "first", "wait"),
                    edge("e3", "wait", "second"))));
        runId =
            fire(new ApiClient(WholeService.baseUrl(first), null), tenant.id(), "hook", Map.of());
        ApiClient api = tenant.api();
        waiting =
            await()
                .atMost(Patience.EVENTUALLY)
                .until(
                    () -> api.get("/api/v1/automation-runs/" + runId).at("/run/node_log/2"),
                    entry -> "running".equals(entry.path("status").asString()));
      }
      Instant until = Instant.parse(waiting.at("/output/until").asString());
      assertThat(Instant.now()).as("stopped before the delay ended").isBefore(until);

      try (ConfigurableApplicationContext second = WholeService.start(dataDir, new String[0])) {
        Instant upAgain = Instant.now();
        ApiClient api = new ApiClient(WholeService.baseUrl(second), tenant.key());
        JsonNode run = awaitRun(api, runId);

        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
        assertThat(run.at("/node_log").valueStream().map(e -> e.get("nodeId").asString()))
            .containsExactly("hook", "first", "wait", "second");
        assertThat(run.at("/node_log").valueStream().map(e -> e.get("status").asString()))
            .containsOnly("completed");
        JsonNode wait = run.at("/node_log/2");
        assertThat(wait.get("startedAt").asString())
            .as("the same log entry, started before the restart")
            .isEqualTo(waiting.get("startedAt").asString());
        Instant secondStarted = Instant.parse(run.at("/node_log/3/startedAt").asString());
        // woken as soon as the service is up (10 s of slack for a slow machine); a delay that
        // started over would end a whole DELAY after that
        Instant resumedBy = (until.isAfter(upAgain) ? until : upAgain).plusSeconds(10);
        assertThat(secondStarted)
            .as("the delay waited what it had left, not its whole length again")
            .isAfterOrEqualTo(until.minusMillis(50))
            .isBefore(resumedBy);
        assertThat(peer.received("/first")).as("not called again after the restart").hasSize(1);
        assertThat(peer.received())
            .extracting(LocalHttpServer.Received::path)
            .containsExactly("/first", "/second/5");
        assertThat(peer.received("/second/5").get(0).header("Idempotency-Key"))
            .isEqualTo(
                second.getBean(CauseHeader.class).idempotencyKey(tenant.id(), runId + ":second"));

        JsonNode enrollment =
            await()
                .atMost(Patience.EVENTUALLY)
                .until(
                    () -> api.get("/api/v1/sequences/" + sequenceId + "/enrollments"),
                    list -> "completed".equals(list.at("/enrollments/0/status").asString()))
                .at("/enrollments/0");
        JsonNode emails =
            api.get("/api/v1/outbound-emails?run_id=" + enrollment.get("run_id").asString()).json();
        assertThat(
                emails.at("/outbound_emails").valueStream().map(e -> e.get("subject").asString()))
            .as("the welcome email once, before the restart; the follow-up after it")
            .containsExactlyInAnyOrder("Welcome Rita", "Following up");
      }
    }
  }

  @Test
  void aRunTerminatedInTemporalJustBeforeAStopStaysTerminatedAndEndsFailed(@TempDir Path dataDir) {
    try (LocalHttpServer peer = new LocalHttpServer()) {
      ApiTest.TenantClient tenant;
      String runId;
      String workflowId;
      try (ConfigurableApplicationContext first = WholeService.start(dataDir, new String[0])) {
        tenant = WholeService.newTenant(first);
        activeAutomation(tenant.api(), Flows.waitADayThenCall("hook", peer.url("/later")));
        runId =
            fire(new ApiClient(WholeService.baseUrl(first), null), tenant.id(), "hook", Map.of());
        awaitNodeLog(tenant.api(), runId, 2);
        workflowId = tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/workflow_id");
        first
            .getBean(WorkflowClient.class)
            .newUntypedWorkflowStub(workflowId)
            .terminate("stopped by the operator");
        assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
            .as("closed a moment ago: the sweep has not ended it yet")
            .isEqualTo("running");
      } // the service stops at once

      try (ConfigurableApplicationContext second = WholeService.start(dataDir, new String[0])) {
        ApiClient api = new ApiClient(WholeService.baseUrl(second), tenant.key());
        WorkflowClient temporal = second.getBean(WorkflowClient.class);
        assertThat(temporal.newUntypedWorkflowStub(workflowId).describe().getStatus())
            .as("the dev server kept the terminated workflow as it was")
            .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);

        second.getBean(ClosedWorkflowSweep.class).checkNextBatches(Duration.ZERO);

        JsonNode run = api.get("/api/v1/automation-runs/" + runId).at("/run");
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("failed");
        assertThat(run.get("error").asString())
            .isEqualTo("The workflow was terminated in Temporal: stopped by the operator");
        assertThat(run.at("/node_log/1/status").asString()).isEqualTo("failed");
        assertThat(peer.received("/later")).isEmpty();
      }
    }
  }

  @Test
  void aDevServerKilledWhileTheServiceRunsIsStartedAgainAndItsWaitingRunGoesOn(
      @TempDir Path dataDir) throws Exception {
    try (LocalHttpServer peer = new LocalHttpServer();
        ConfigurableApplicationContext service = WholeService.start(dataDir, new String[0])) {
      ApiTest.TenantClient tenant = WholeService.newTenant(service);
      activeAutomation(
          tenant.api(),
          Flows.chain(
              "hook",
              node("wait", "delay", Map.of("delayHours", 5.0 / 3600)),
              node("call", "http_request", Map.of("method", "POST", "url", peer.url("/after")))));
      String runId =
          fire(new ApiClient(WholeService.baseUrl(service), null), tenant.id(), "hook", Map.of());
      awaitNodeLog(tenant.api(), runId, 2);
      TemporalDevServer temporal =
          service.getBean(EmbeddedInfrastructure.TEMPORAL_BEAN, TemporalDevServer.class);
      long killed = temporal.pid();

      ProcessHandle.of(killed).orElseThrow().destroyForcibly(); // as an operator's kill -9

      await()
          .atMost(Patience.EVENTUALLY)
          .until(() -> temporal.pid() != killed && ProcessHandle.of(temporal.pid()).isPresent());
      JsonNode run = awaitRun(tenant.api(), runId);
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(peer.received("/after")).hasSize(1);
      assertThat(ProcessHandle.of(temporal.pid()).orElseThrow().parent().map(ProcessHandle::pid))
          .contains(ProcessHandle.current().pid());
    }
  }

  /**
   * Two runs wait in a wait_until for their contact's reply across a stop and a start: the reply
   * sent just before the stop (committed, dispatched or not, signalled or not) and the reply sent
   * after the start each meet their run's wait once.
   */
  @Test
  void runsWaitingForAReplyHearTheRepliesSentJustBeforeAndAfterARestartOnce(@TempDir Path dataDir) {
    try (LocalHttpServer peer = new LocalHttpServer()) {
      ApiTest.TenantClient tenant;
      String early;
      String late;
      String adaRun;
      String bobRun;
      String bobWaitStarted = null;
      try (ConfigurableApplicationContext first = WholeService.start(dataDir, new String[0])) {
        tenant = WholeService.newTenant(first);
        ApiClient api = tenant.api();
        activeAutomation(
            api,
            canvas(
                List.of(
                    node("hook", "webhook_trigger", Map.of()),
                    node(
                        "reply",
                        "wait_until",
                        Map.of("eventType", "conversation.message_received", "timeoutDays", 1)),
                    node(
                        "met",
                        "http_request",
                        Map.of(
                            "method",
                            "POST",
                            "url",
                            peer.url("/met/{{contact.email}}"),
                            "bodyTemplate",
                            "{\"said\": \"{{wait_until_1.event.data.content}}\"}"))),
                List.of(edge("e1", "hook", "reply"), edge("e2", "reply", "met", "met"))));
        early =
            api.post("/api/v1/contacts", Map.of("email", "ada@example.com")).text("/contact/id");
        late = api.post("/api/v1/contacts", Map.of("email", "bob@example.com")).text("/contact/id");
        ApiClient anonymous = new ApiClient(WholeService.baseUrl(first), null);
        adaRun = fire(anonymous, tenant.id(), "hook", Map.of("contact_id", early));
        bobRun = fire(anonymous, tenant.id(), "hook", Map.of("contact_id", late));
        for (String runId : List.of(adaRun, bobRun)) {
          JsonNode waiting =
              await()
                  .atMost(Patience.EVENTUALLY)
                  .until(
                      () -> api.get("/api/v1/automation-runs/" + runId).at("/run/node_log/1"),
                      entry -> "running".equals(entry.path("status").asString()));
          bobWaitStarted = waiting.get("startedAt").asString();
        }
        assertThat(
                api.post(
                        "/api/v1/conversations",
                        Map.of(
                            "contact_id", early, "content", "Just before", "direction", "inbound"))
                    .status())
            .isEqualTo(201);
      } // stopped at once, wherever the reply's dispatch and signal stood

      try (ConfigurableApplicationContext second = WholeService.start(dataDir, new String[0])) {
        ApiClient api = new ApiClient(WholeService.baseUrl(second), tenant.key());
        JsonNode ada = awaitRun(api, adaRun);
        assertThat(ada.get("status").asString()).as(ada.toString()).isEqualTo("completed");
        assertThat(ada.at("/node_log/1/output/event/data/content").asString())
            .isEqualTo("Just before");
        assertThat(api.get("/api/v1/automation-runs/" + bobRun).text("/run/status"))
            .isEqualTo("running");

        assertThat(
                api.post(
                        "/api/v1/conversations",
                        Map.of("contact_id", late, "content", "Just after", "direction", "inbound"))
                    .status())
            .isEqualTo(201);
        JsonNode bob = awaitRun(api, bobRun);
        assertThat(bob.get("status").asString()).as(bob.toString()).isEqualTo("completed");
        assertThat(bob.at("/node_log/1/output/event/data/content").asString())
            .isEqualTo("Just after");
        assertThat(bob.at("/node_log/1/startedAt").asString())
            .as("the same wait, started before the restart")
            .isEqualTo(bobWaitStarted);
        assertThat(peer.received("/met/ada@example.com")).hasSize(1);
        assertThat(peer.received("/met/bob@example.com")).hasSize(1);
      }
    }
  }

  /**
   * A run waits in a delay for its send window across a stop and a start: it goes on when the
   * window opens, not before, and its delay keeps the moment it computed and its log entry.
   */
  @Test
  void aRunWaitingForItsSendWindowGoesOnWhenTheWindowOpensAfterARestart(@TempDir Path dataDir) {
    Instant now = Instant.now();
    // the next whole minute at least 40 s away, in UTC: the window opens after the restart
    Instant opens =
        now.plusSeconds(40).truncatedTo(java.time.temporal.ChronoUnit.MINUTES).plusSeconds(60);
    String from = opens.atZone(java.time.ZoneOffset.UTC).toLocalTime().toString();
    String to = opens.plusSeconds(600).atZone(java.time.ZoneOffset.UTC).toLocalTime().toString();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      ApiTest.TenantClient tenant;
      String runId;
      JsonNode waiting;
      try (ConfigurableApplicationContext first = WholeService.start(dataDir, new String[0])) {
        tenant = WholeService.newTenant(first);
        activeAutomation(
            tenant.api(),
            Flows.chain(
                "hook",
                node(
                    "wait",
                    "delay",
                    Map.of(
                        "window",
                        Map.of(
                            "days",
                            List.of(1, 2, 3, 4, 5, 6, 7),
                            "from",
                            from,
                            "to",
                            to,
                            "timezone",
                            "UTC"))),
                node("call", "http_request", Map.of("method", "POST", "url", peer.url("/open")))));
        runId =
            fire(new ApiClient(WholeService.baseUrl(first), null), tenant.id(), "hook", Map.of());
        ApiClient api = tenant.api();
        String id = runId;
        waiting =
            await()
                .atMost(Patience.EVENTUALLY)
                .until(
                    () -> api.get("/api/v1/automation-runs/" + id).at("/run/node_log/1"),
                    entry -> "running".equals(entry.path("status").asString()));
      }
      assertThat(Instant.parse(waiting.at("/output/until").asString())).isEqualTo(opens);
      assertThat(waiting.at("/output/zone").asString()).isEqualTo("UTC");

      try (ConfigurableApplicationContext second = WholeService.start(dataDir, new String[0])) {
        ApiClient api = new ApiClient(WholeService.baseUrl(second), tenant.key());
        JsonNode run = awaitRun(api, runId);
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
        JsonNode wait = run.at("/node_log/1");
        assertThat(wait.get("startedAt").asString()).isEqualTo(waiting.get("startedAt").asString());
        assertThat(wait.at("/output/window/until").asString())
            .isEqualTo(waiting.at("/output/until").asString());
        assertThat(Instant.parse(run.at("/node_log/2/startedAt").asString()))
            .as("not before the window opened")
            .isAfterOrEqualTo(opens);
        assertThat(peer.received("/open")).hasSize(1);
      }
    }
  }

  /** Rita enrolled in welcome email → delay → follow-up email, once she waits on the delay. */
  private static String enrollInWaitingSequence(ApiClient api) {
    String contactId =
        api.post("/api/v1/contacts", Map.of("email", "rita@example.com", "first_name", "Rita"))
            .text("/contact/id");
    String sequenceId = sequence(api, "Onboarding");
    Map<String, Object> steps =
        canvas(
            List.of(
                node("welcome", "email", Map.of("subject", "Welcome {{contact.first_name}}")),
                node("pause", "delay", Map.of("delayHours", DELAY.toMillis() / 3_600_000.0)),
                node("follow", "email", Map.of("subject", "Following up"))),
            List.of(edge("s1", "welcome", "pause"), edge("s2", "pause", "follow")));
    assertThat(api.put("/api/sequences/" + sequenceId + "/canvas", steps).status()).isEqualTo(200);
    assertThat(api.patch("/api/v1/sequences/" + sequenceId, Map.of("status", "active")).status())
        .isEqualTo(200);
    ApiResponse enrolled =
        api.post(
            "/api/v1/sequences/enroll", Map.of("sequence_id", sequenceId, "contact_id", contactId));
    assertThat(enrolled.status()).as(enrolled.toString()).isEqualTo(201);
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> api.get("/api/v1/sequences/" + sequenceId + "/enrollments"),
            list ->
                "pause".equals(list.at("/enrollments/0/current_step/node_id").asString())
                    && "running".equals(list.at("/enrollments/0/current_step/status").asString()));
    return sequenceId;
  }
}
