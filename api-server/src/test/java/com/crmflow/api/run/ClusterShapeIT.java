package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiServerProcess;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.ClusterScripts;
import com.crmflow.api.support.HttpsReceiver;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.ReleaseGate;
import com.crmflow.api.support.WholeService;
import com.crmflow.shared.outbound.CauseHeader;
import com.crmflow.shared.secret.SecretCipher;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * The production shape, started and stopped by {@code deploy/cluster/start.sh} and {@code stop.sh}
 * as an operator does: PostgreSQL, a Temporal server on it with 4 history shards, two api-servers
 * and two workflow-workers, each its own process. One cluster serves every scenario (its start
 * takes a minute, and builds the Temporal server once on a new machine); the scenarios run in order
 * and the schedule activated first is checked last, after every kill and restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterShapeIT {

  private static final int RUNS = 200;

  /** The key every api-server and worker is given. */
  private static final String SECRETS_KEY = "RRGwdKW/pSzaULDAQjpucZj2GZEQcEIt9soxswx+Vm4=";

  /** The cluster's Idempotency-Key of a run's call, a keyed hash under its secrets key. */
  private static final CauseHeader CAUSES = new CauseHeader(new SecretCipher(SECRETS_KEY, ""));

  private ClusterScripts cluster;
  private GreenMail smtp;
  private LocalHttpServer peer;
  private HttpsReceiver hooks;
  private ApiTest.TenantClient tenant;
  private String started;

  @BeforeAll
  void startTheCluster() throws Exception {
    smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", "smtp"));
    smtp.start();
    peer = new LocalHttpServer();
    hooks = new HttpsReceiver();
    Files.createDirectories(Path.of("target"));
    Path dir = Files.createTempDirectory(Path.of("target"), "cluster-");
    cluster =
        ClusterScripts.in(
            dir,
            Map.of(
                "CLUSTER_UI",
                "0",
                "CRM_ADMIN_TOKEN",
                ApiServerProcess.ADMIN_TOKEN,
                "CRM_HTTP_ALLOW_PRIVATE_ADDRESSES",
                "true",
                "CRM_HTTP_TRUSTED_CERTIFICATES",
                hooks.certificatePem().toString(),
                "CRM_SECRETS_KEY",
                SECRETS_KEY,
                "SPRING_MAIL_HOST",
                "127.0.0.1",
                "SPRING_MAIL_PORT",
                String.valueOf(smtp.getSmtp().getPort()),
                "CRM_MAIL_FROM",
                "flows@crm.example",
                // a part restarted while the others finish its runs starts slowly on a busy
                // machine; the scenarios' own awaits bound the wait
                "CLUSTER_START_TIMEOUT",
                "600"));
    started = cluster.start();
    tenant = WholeService.newTenant(cluster.apiUrl(1), ApiServerProcess.ADMIN_TOKEN);
    // 200 runs fired back to back: over the default trigger quota
    ApiResponse quota =
        new ApiClient(cluster.apiUrl(2), ApiServerProcess.ADMIN_TOKEN)
            .put(
                "/admin/v1/tenants/" + tenant.id() + "/trigger-quota",
                Map.of("requests", 1_000, "window_seconds", 1));
    assertThat(quota.status()).as(quota.toString()).isEqualTo(200);
    // every minute, from now through every scenario: checked in the last one
    String scheduleClock = "clock-" + UUID.randomUUID().toString().substring(0, 8);
    activeAutomation(
        on(1),
        triggeredBy(
            node(
                scheduleClock,
                "schedule_trigger",
                Map.of(
                    "scheduleType", "custom",
                    "customCron", "* * * * *",
                    "time", "00:00",
                    "timezone", "UTC")),
            node(
                "report",
                "http_request",
                http(
                    "POST",
                    peer.url("/slot"),
                    "bodyTemplate",
                    "{\"at\": \"{{trigger.scheduled_at}}\"}"))));
  }

  /** The trigger node, then the step: a canvas of two nodes. */
  private static Map<String, Object> triggeredBy(
      Map<String, Object> trigger, Map<String, Object> step) {
    return canvas(
        List.of(trigger, step),
        List.of(edge("e1", (String) trigger.get("id"), (String) step.get("id"))));
  }

  @AfterAll
  void stopTheCluster() throws Exception {
    try {
      if (cluster != null) {
        String stopped = cluster.stop();
        for (String part :
            List.of("api-1", "api-2", "worker-1", "worker-2", "temporal", "postgres")) {
          assertThat(stopped).as(stopped).contains("stopped " + part);
          assertThat(cluster.dir().resolve(part + ".pid")).doesNotExist();
        }
      }
    } finally {
      if (peer != null) {
        peer.close();
      }
      if (hooks != null) {
        hooks.close();
      }
      if (smtp != null) {
        smtp.stop();
      }
    }
  }

  @Test
  @Order(1)
  void startPrintsEveryPartAndTemporalKeepsFourShardsOnPostgres() throws Exception {
    assertThat(started)
        .contains("postgres    127.0.0.1:")
        .contains(
            "temporal    " + cluster.temporalTarget() + " (4 history shards, namespace default)")
        .contains("api-1       " + cluster.apiUrl(1))
        .contains("api-2       " + cluster.apiUrl(2))
        .contains("worker-1    polling " + cluster.temporalTarget())
        .contains("worker-2    polling " + cluster.temporalTarget());
    for (String part : List.of("postgres", "temporal", "api-1", "api-2", "worker-1", "worker-2")) {
      assertThat(cluster.running(part)).as(part + " runs under its pid file").isTrue();
    }
    assertThat(query("temporal", "select count(*) from shards")).isEqualTo(4);
    assertThat(query("temporal_visibility", "select count(*) from schema_version")).isEqualTo(1);
    assertThat(query("crm", "select count(*) from flyway_schema_history where success"))
        .isPositive();
    // a second start finds every part running and starts none again
    long api1 = cluster.pid("api-1");
    long temporal = cluster.pid("temporal");
    cluster.start();
    assertThat(cluster.pid("api-1")).isEqualTo(api1);
    assertThat(cluster.pid("temporal")).isEqualTo(temporal);
  }

  /**
   * A tenant's burst spread over both api-servers is held to its quota once (the buckets are shared
   * in PostgreSQL), within what the bucket refills while the burst lasts; and a flood of runs that
   * stay due (each waits on a peer that holds its call) is answered 503 with Retry-After by each
   * api-server's admission once its share is taken, as on the embedded defaults.
   */
  @Test
  @Order(2)
  void aTenantsBurstThroughBothApiServersIsHeldToItsQuotaAndTheAdmissionAnswers503()
      throws Exception {
    ApiTest.TenantClient limited =
        WholeService.newTenant(cluster.apiUrl(2), ApiServerProcess.ADMIN_TOKEN);
    ApiResponse quota =
        new ApiClient(cluster.apiUrl(2), ApiServerProcess.ADMIN_TOKEN)
            .put(
                "/admin/v1/tenants/" + limited.id() + "/trigger-quota",
                Map.of("requests", 30, "window_seconds", 60));
    assertThat(quota.status()).as(quota.toString()).isEqualTo(200);
    // every call counts, an unknown node's too (404 within the quota): no run is started
    long burstStarted = System.nanoTime();
    List<ApiResponse> burst =
        inParallel(
            90,
            n ->
                anonymous(1 + n % 2)
                    .post(
                        "/api/webhooks/automation/" + limited.id() + "/no-such-trigger",
                        Map.of("n", n)));
    double burstSeconds = (System.nanoTime() - burstStarted) / 1e9;
    long within = burst.stream().filter(r -> r.status() == 404).count();
    assertThat(burst)
        .as("each call answered 404 (within the quota) or 429")
        .allMatch(r -> r.status() == 404 || r.status() == 429);
    // 30 at once, and the bucket's refill (30 a minute) while the burst lasted
    assertThat(within)
        .as("calls let in over %.1f s through both api-servers", burstSeconds)
        .isBetween(30L, 30L + (long) Math.ceil(burstSeconds / 2) + 1);
    ApiResponse refused = burst.stream().filter(r -> r.status() == 429).findFirst().orElseThrow();
    assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"trigger\";q=30;w=60");
    assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 2);

    String held = "held-" + UUID.randomUUID().toString().substring(0, 8);
    activeAutomation(
        on(1), chain(held, node("call", "http_request", http("POST", peer.url("/held")))));
    peer.hold("/held");
    List<ApiResponse> flood;
    try {
      flood =
          inParallel(
              200,
              n ->
                  anonymous(1 + n % 2)
                      .post(
                          "/api/webhooks/automation/" + tenant.id() + "/" + held, Map.of("n", n)));
    } finally {
      peer.release("/held");
    }
    List<ApiResponse> overloaded = flood.stream().filter(r -> r.status() == 503).toList();
    List<String> accepted =
        flood.stream().filter(r -> r.status() == 200).map(r -> r.text("/runId")).toList();
    assertThat(accepted.size() + overloaded.size()).as("200 or 503 each").isEqualTo(flood.size());
    // each api-server: its 32 due, and at most one limit's worth more
    assertThat(accepted).hasSizeBetween(32, 2 * 2 * 32);
    assertThat(overloaded).isNotEmpty();
    assertThat(overloaded.get(0).header("Retry-After")).isNotBlank();
    assertThat(overloaded.get(0).text("/detail"))
        .contains("at capacity for this tenant's triggers");
    for (String runId : accepted) {
      assertThat(awaitRun(on(2), runId).get("status").asString()).isEqualTo("completed");
    }
  }

  /**
   * Fires the trigger, again after each 503 of the admission (a loaded machine's runs take a while
   * to reach their delay, and until then they are due), as a client that honours Retry-After does.
   */
  private String fireUntilAdmitted(ApiClient api, String hook, Map<String, Object> payload) {
    ApiResponse[] answer = new ApiResponse[1];
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofSeconds(1))
        .pollDelay(Duration.ZERO)
        .until(
            () -> {
              answer[0] = api.post("/api/webhooks/automation/" + tenant.id() + "/" + hook, payload);
              assertThat(answer[0].status()).as(answer[0].toString()).isIn(200, 503);
              return answer[0].status() == 200;
            });
    return answer[0].text("/runId");
  }

  /** {@code calls} requests, 16 at a time; their answers in order. */
  private static List<ApiResponse> inParallel(
      int calls, java.util.function.IntFunction<ApiResponse> call) throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(16);
    try {
      List<Future<ApiResponse>> sent = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        int n = i;
        sent.add(callers.submit(() -> call.apply(n)));
      }
      List<ApiResponse> answers = new ArrayList<>();
      for (Future<ApiResponse> each : sent) {
        answers.add(each.get(2, TimeUnit.MINUTES));
      }
      return answers;
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  @Order(3)
  void aRunTriggeredOnOneApiServerIsReadCancelledAndRetriedThroughTheOther() {
    // waits an hour: cancelled through api-2
    String waiting = "wait-" + UUID.randomUUID().toString().substring(0, 8);
    activeAutomation(
        on(1),
        chain(
            waiting,
            node("wait", "delay", Map.of("delayHours", 1)),
            node("call", "http_request", http("POST", peer.url("/never")))));
    String runId = fire(anonymous(1), tenant.id(), waiting, Map.of("n", 1));
    JsonNode read =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () -> on(2).get("/api/v1/automation-runs/" + runId).at("/run"),
                run -> "running".equals(run.at("/node_log/1/status").asString()));
    assertThat(read.get("trigger_node_id").asString()).isEqualTo(waiting);
    ApiResponse cancelled = on(2).post("/api/v1/automation-runs/" + runId + "/cancel", Map.of());
    assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
    assertThat(cancelled.text("/run/status")).isEqualTo("cancelled");
    JsonNode onApi1 = on(1).get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(onApi1.get("status").asString()).isEqualTo("cancelled");
    assertThat(onApi1.at("/node_log/1/status").asString()).isEqualTo("skipped");

    // fails on a 404 on api-1's trigger: retried through api-2 once the peer answers
    String failing = "fail-" + UUID.randomUUID().toString().substring(0, 8);
    peer.answer("/flaky", 404, "{\"error\": \"not yet\"}");
    activeAutomation(
        on(2), chain(failing, node("flaky", "http_request", http("POST", peer.url("/flaky")))));
    String failedId = fire(anonymous(1), tenant.id(), failing, Map.of("n", 2));
    assertThat(awaitRun(on(2), failedId).get("status").asString()).isEqualTo("failed");
    peer.answer("/flaky", 200, "{}");
    ApiResponse retry = on(2).post("/api/v1/automation-runs/" + failedId + "/retry", Map.of());
    assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
    String retryId = retry.text("/run/id");
    assertThat(retry.text("/run/retry_of")).isEqualTo(failedId);
    JsonNode retried = awaitRun(on(1), retryId);
    assertThat(retried.get("status").asString()).as(retried.toString()).isEqualTo("completed");
    assertThat(peer.received("/flaky")).hasSize(2);
    assertThat(peer.received("/never")).isEmpty();

    // Temporal's visibility finds the run by the search attributes the api-servers registered as
    // they started: its start carried them and its end upserted CrmStatus, on the cluster's
    // dynamic config (deploy/temporal), which does not refresh them on each read
    String byAttributes =
        "CrmTenantId = '%s' AND CrmTriggerKind = 'retry' AND CrmStatus = 'completed'"
            .formatted(tenant.id());
    assertThat(
            await()
                .atMost(Patience.EVENTUALLY)
                .until(() -> workflowsListed(byAttributes), listed -> !listed.isEmpty()))
        .containsExactly(retried.get("workflow_id").asString());
  }

  /** The workflow ids that the cluster's Temporal visibility lists for the query. */
  private List<String> workflowsListed(String query) {
    WorkflowServiceStubs temporal =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(cluster.temporalTarget()).build());
    try {
      return temporal
          .blockingStub()
          .listWorkflowExecutions(
              ListWorkflowExecutionsRequest.newBuilder()
                  .setNamespace("default")
                  .setQuery(query)
                  .build())
          .getExecutionsList()
          .stream()
          .map(execution -> execution.getExecution().getWorkflowId())
          .toList();
    } finally {
      temporal.shutdownNow();
    }
  }

  @Test
  @Order(4)
  void eachCrmEventStartsItsAutomationOnceAndEachWebhookIsDeliveredOnce() {
    String trigger = "created-" + UUID.randomUUID().toString().substring(0, 8);
    String sequenceId =
        activeAutomation(
            on(1),
            triggeredBy(
                node(trigger, "crm_event_trigger", Map.of("eventType", "contact.created")),
                node("call", "http_request", http("POST", peer.url("/created")))));
    ApiResponse subscribed =
        on(2)
            .post(
                "/api/v1/webhooks/subscribe",
                Map.of("url", hooks.url("/hooks"), "events", List.of("contact.created")));
    assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);

    List<String> contacts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      contacts.add(
          on(1 + i % 2)
              .post("/api/v1/contacts", Map.of("email", "c" + i + "-" + trigger + "@example.com"))
              .text("/contact/id"));
    }

    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                hooks.received("/hooks").size() >= contacts.size()
                    && peer.received("/created").size() >= contacts.size());
    // a second dispatch would come within the outbox's poll: give it the time of a few polls
    await().pollDelay(Duration.ofSeconds(5)).until(() -> true);
    Map<String, Long> deliveries =
        hooks.received("/hooks").stream()
            .collect(
                Collectors.groupingBy(r -> r.header("X-Service-Delivery"), Collectors.counting()));
    assertThat(deliveries).as("one delivery per event").hasSize(contacts.size());
    assertThat(deliveries.values()).as("none delivered twice").containsOnly(1L);
    for (String contact : contacts) {
      assertThat(
              hooks.received("/hooks").stream()
                  .filter(r -> new String(r.body(), StandardCharsets.UTF_8).contains(contact)))
          .as("the webhook of contact " + contact)
          .hasSize(1);
    }
    assertThat(on(2).get("/api/v1/automation-runs?sequence_id=" + sequenceId).at("/total").asInt())
        .as("one run per event")
        .isEqualTo(contacts.size());
    Map<String, Long> calls =
        peer.received("/created").stream()
            .collect(
                Collectors.groupingBy(r -> r.header("Idempotency-Key"), Collectors.counting()));
    assertThat(calls).hasSize(contacts.size());
    assertThat(calls.values()).as("no run's call made twice").containsOnly(1L);
  }

  @Test
  @Order(5)
  void everyWaitingRunCompletesOnceAcrossAKillOrRestartOfEachPart() throws Exception {
    // a worker and an api-server at once: the other of each takes over both parts' runs
    survives(
        "worker-and-api-server",
        () -> {
          cluster.kill("worker-1");
          cluster.kill("api-1");
        });
    survives("temporal", () -> cluster.stop("temporal"));
    survives("postgres", () -> cluster.stop("postgres"));
  }

  @Test
  @Order(6)
  void eachScheduleFiresOncePerSlot() {
    // a minute a slot: at least two slots since the schedule was activated before the scenarios
    await()
        .atMost(Duration.ofSeconds(150))
        .pollInterval(Duration.ofSeconds(2))
        .until(() -> peer.received("/slot").size() >= 2);
    Map<String, Long> slots =
        peer.received("/slot").stream()
            .collect(Collectors.groupingBy(LocalHttpServer.Received::body, Collectors.counting()));
    assertThat(slots.values()).as("each slot fired once: %s", slots).containsOnly(1L);
    List<String> times = slots.keySet().stream().sorted().toList();
    assertThat(times.get(0)).as(times.toString()).matches("\\{\"at\": \"[0-9T:.Z-]+\"}");
  }

  /**
   * The cluster bench (bench/cluster-bench.sh) still runs: a tiny run on this cluster, with one
   * worker and then two, prints the harness's RESULT lines, the CPU per run of each kind of process
   * and the table of both configurations. Its dev-server pass is bench/trigger-bench.sh, which
   * BenchScriptsSmokeIT runs, so it is left out here ({@code DEV_SERVER=0}). Nothing here is timed:
   * the figures are the benchmark's (docs/benchmarks.md).
   */
  @Test
  @Order(7)
  void theClusterBenchRunsOnThisClusterAndPrintsItsResults() {
    String output =
        cluster.run(
            "../bench/cluster-bench.sh",
            10,
            Map.of(
                "SHARDS", "4",
                "WORKERS", "1 2",
                "FLOWS", "a",
                "WARMUP", "0",
                "DEV_SERVER", "0",
                "CRM_ADMIN_TOKEN", ApiServerProcess.ADMIN_TOKEN),
            List.of("20", "2"));

    List<String> lines = output.lines().toList();
    for (String label : List.of("cluster-s4-w1-flow-a", "cluster-s4-w2-flow-a")) {
      assertThat(lines)
          .as(output)
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("RESULT label=" + label + " n=20 sent=20 ")
                      .contains(" errors=0 ")
                      .contains(" lost=0 "))
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("CPU " + label + " per completed run: api-servers ")
                      .contains(" workers ")
                      .contains(" temporal ")
                      .contains(" postgres "))
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("| " + label + " | ")
                      .contains(" | 0 / 0 | api-servers ")
                      .endsWith(" ms |"));
    }
    // the bench leaves the cluster as it found it
    assertThat(cluster.running("worker-2")).isTrue();
  }

  /**
   * The settings bench (bench/cluster-settings.sh) still runs: its baseline variant alone, tiny, on
   * this cluster (whose settings no variant can change here, so no other variant runs), ends with
   * its table of the variant's rate, latency and CPU per run of each kind of process. Its statement
   * counts need a PostgreSQL started with pg_stat_statements, so they are left out.
   */
  @Test
  @Order(8)
  void theSettingsBenchRunsItsBaselineOnThisClusterAndPrintsItsTable() {
    String output =
        cluster.run(
            "../bench/cluster-settings.sh",
            10,
            Map.of(
                "ONLY", "baseline",
                "PREWARM", "0",
                "PG_STATEMENTS", "",
                "JIT_CURVE", "5",
                "CRM_ADMIN_TOKEN", ApiServerProcess.ADMIN_TOKEN),
            List.of("20", "2"));

    List<String> lines = output.lines().toList();
    assertThat(lines)
        .as(output)
        .contains("=== baseline: the defaults")
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("RESULT label=baseline-flow-a n=20 sent=20 ")
                    .contains(" errors=0 ")
                    .contains(" lost=0 "))
        .anySatisfy(
            line -> assertThat(line).startsWith("| baseline-flow-a | ").contains(" ms | n/a |"))
        .noneSatisfy(line -> assertThat(line).startsWith("=== partitions-1"));
    assertThat(output).doesNotContain("did not run to its end");
    assertThat(cluster.running("worker-2")).isTrue();
  }

  /**
   * 200 runs wait in a wait_until for their contact to become a customer, the part is killed or
   * stopped (the others go on), the contact's update releases them while start.sh starts the part
   * again, and each run ends once: completed, its call made once, its email sent once. The runs
   * wait for the test's release, not for a clock, so a slow machine cannot let one through before
   * the disruption.
   */
  private void survives(String part, Runnable disrupt) throws Exception {
    long began = System.nanoTime();
    // each phase's time in the build's output: where the scenario's minutes go on a busy machine
    Consumer<String> phase =
        name ->
            System.out.printf(
                "ClusterShapeIT %s: %s at %.1f s%n", part, name, (System.nanoTime() - began) / 1e9);
    String contactId =
        on(1)
            .post("/api/v1/contacts", Map.of("email", "waiting-" + part + "@example.com"))
            .text("/contact/id");
    String hook = "hook-" + part + "-" + UUID.randomUUID().toString().substring(0, 8);
    String sequenceId =
        activeAutomation(
            on(2),
            ReleaseGate.chain(
                hook,
                node("call", "http_request", http("POST", peer.url("/done/" + part))),
                node("mail", "email", Map.of("subject", "after " + part, "body", "done"))));
    // fired eight at a time, through both api-servers
    List<String> runIds;
    ExecutorService callers = Executors.newFixedThreadPool(8);
    try {
      List<Future<String>> fired = new ArrayList<>();
      for (int i = 0; i < RUNS; i++) {
        int n = i;
        fired.add(
            callers.submit(
                () ->
                    fireUntilAdmitted(
                        anonymous(1 + n % 2), hook, Map.of("contact_id", contactId, "n", n))));
      }
      runIds = new ArrayList<>();
      for (Future<String> each : fired) {
        runIds.add(each.get());
      }
      phase.accept("fired");
      // each run waits once its watch of the contact is in: an update before that would pass it by
      await()
          .atMost(Patience.EVENTUALLY)
          .until(
              () ->
                  count(sequenceId, "running") == RUNS
                      && query(
                              "crm",
                              "select count(*) from record_watch w join automation_run r"
                                  + " on r.id = w.run_id where r.sequence_id = '"
                                  + sequenceId
                                  + "'")
                          == RUNS);
      assertThat(peer.received("/done/" + part)).as("no run went on before its release").isEmpty();
      phase.accept("waiting");

      disrupt.run();
      phase.accept("disrupted");
      // start.sh brings the part back while the runs go on: a killed worker's or api-server's
      // runs are the other one's to finish meanwhile
      CompletableFuture<String> restarted = CompletableFuture.supplyAsync(cluster::start, callers);
      restarted.thenRun(() -> phase.accept("restarted"));
      // the release, through api-2 (up in every scenario) once it can commit: while PostgreSQL is
      // stopped the update is refused, and the runs are released when it is back
      await()
          .atMost(Duration.ofSeconds(240))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .failFast(
              "start.sh failed",
              () -> {
                if (restarted.isCompletedExceptionally()) {
                  restarted.join();
                }
              })
          .until(
              () ->
                  on(2)
                          .patch(
                              "/api/v1/contacts/" + contactId,
                              Map.of("lifecycle_stage", "customer"))
                          .status()
                      == 200);
      phase.accept("released");

      await()
          .atMost(Duration.ofSeconds(240))
          .pollInterval(Duration.ofSeconds(2))
          // start.sh's failure carries its output (the part that did not come back, and its log)
          .failFast(
              "start.sh failed",
              () -> {
                if (restarted.isCompletedExceptionally()) {
                  restarted.join();
                }
              })
          .until(() -> count(sequenceId, "completed") + count(sequenceId, "failed") == RUNS);
      phase.accept("ended");
      assertThat(restarted.get(5, TimeUnit.MINUTES))
          .contains("worker-1    polling", "api-1       http");
      List<Future<JsonNode>> ended = new ArrayList<>();
      for (String runId : runIds) {
        ended.add(callers.submit(() -> on(1).get("/api/v1/automation-runs/" + runId).at("/run")));
      }
      for (Future<JsonNode> each : ended) {
        JsonNode run = each.get();
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
        assertThat(run.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
            .as(run.toString())
            .containsExactly(hook, "wait", "call", "mail");
        assertThat(run.at("/node_log/1/output/outcome").asString())
            .as(run.toString())
            .isEqualTo("met");
      }
    } finally {
      callers.shutdownNow();
    }
    assertThat(count(sequenceId, null)).as("no run more than those fired").isEqualTo(RUNS);
    Map<String, Long> calls =
        peer.received("/done/" + part).stream()
            .collect(
                Collectors.groupingBy(r -> r.header("Idempotency-Key"), Collectors.counting()));
    assertThat(calls.keySet())
        .as("every run's call made")
        .containsExactlyInAnyOrderElementsOf(
            runIds.stream().map(id -> CAUSES.idempotencyKey(tenant.id(), id + ":call")).toList());
    assertThat(calls.values()).as("no call made twice").containsOnly(1L);
    Map<String, Long> mails =
        Arrays.stream(smtp.getReceivedMessages())
            .filter(m -> subject(m).equals("after " + part))
            .collect(Collectors.groupingBy(ClusterShapeIT::messageId, Collectors.counting()));
    assertThat(mails).as("every run's email sent").hasSize(RUNS);
    assertThat(mails.values()).as("no email sent twice").containsOnly(1L);
  }

  private int count(String sequenceId, String status) {
    return on(2)
        .get(
            "/api/v1/automation-runs?limit=1&sequence_id="
                + sequenceId
                + (status == null ? "" : "&status=" + status))
        .at("/total")
        .asInt();
  }

  private ApiClient on(int api) {
    return new ApiClient(cluster.apiUrl(api), tenant.key());
  }

  private ApiClient anonymous(int api) {
    return new ApiClient(cluster.apiUrl(api), null);
  }

  private int query(String database, String sql) throws Exception {
    try (Connection connection =
            DriverManager.getConnection(
                cluster.jdbcUrl(database), "postgres", cluster.postgresPassword());
        ResultSet result = connection.createStatement().executeQuery(sql)) {
      result.next();
      return result.getInt(1);
    }
  }

  private static String subject(MimeMessage message) {
    try {
      return message.getSubject();
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String messageId(MimeMessage message) {
    try {
      return message.getMessageID();
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }
}
