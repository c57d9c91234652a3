package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.fire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiServerProcess;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.DevServers;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.WorkerProcess;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The {@code distributed} shape for real, each part its own process: an api-server from its jar
 * (profile {@code distributed}, its PostgreSQL embedded), a workflow-worker from its jar, and a
 * Temporal dev server. While 200 runs wait on a short delay, one part at a time is killed ({@code
 * kill -9}) and started again: the worker, then the api-server, then the dev server itself on its
 * SQLite file. Every run completes once, and its call and its email happen once: 0 lost, 0 done
 * twice.
 */
class DistributedRestartIT {

  private static final int RUNS = 200;

  /** The key every process of the distributed shape is given (it makes none of its own). */
  private static final String SECRETS_KEY = "RRGwdKW/pSzaULDAQjpucZj2GZEQcEIt9soxswx+Vm4=";

  /** Long enough to fire 200 runs and kill a part before the first wakes. */
  private static final double DELAY_SECONDS = 30;

  private TemporalDevServer temporal;
  private GreenMail smtp;
  private LocalHttpServer peer;
  private Path dataDir;
  private ApiServerProcess api;
  private WorkerProcess worker;

  @BeforeEach
  void startTheParts() throws Exception {
    temporal = DevServers.start();
    smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", "smtp"));
    smtp.start();
    peer = new LocalHttpServer();
    dataDir = Files.createTempDirectory(Path.of("target"), "distributed-");
    api = startApiServer();
    worker = startWorker();
    api.awaitReady();
    worker.awaitReady();
  }

  @AfterEach
  void stopTheParts() throws Exception {
    worker.close();
    api.close();
    temporal.close();
    peer.close();
    smtp.stop();
  }

  @Test
  void everyWaitingRunCompletesOnceAcrossAKillOfEachPart() throws Exception {
    ApiTest.TenantClient tenant = api.newTenant();
    // 600 runs fired back to back: over the default trigger quota
    ApiResponse quota =
        new ApiClient(api.baseUrl(), ApiServerProcess.ADMIN_TOKEN)
            .put(
                "/admin/v1/tenants/" + tenant.id() + "/trigger-quota",
                Map.of("requests", 1_000, "window_seconds", 1));
    assertThat(quota.status()).as(quota.toString()).isEqualTo(200);
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "waiting@example.com"))
            .text("/contact/id");

    survives(tenant, contactId, "worker", this::restartWorker);
    survives(tenant, contactId, "api-server", this::restartApiServer);
    survives(tenant, contactId, "temporal", this::restartTemporal);
  }

  /** 200 runs wait on the delay, the part is killed and started again, and each run ends once. */
  private void survives(ApiTest.TenantClient tenant, String contactId, String part, Restart restart)
      throws Exception {
    String hook = "hook-" + part;
    String sequenceId =
        activeAutomation(
            client(tenant),
            chain(
                hook,
                node("wait", "delay", Map.of("delayHours", DELAY_SECONDS / 3600)),
                node(
                    "call",
                    "http_request",
                    Map.of("method", "POST", "url", peer.url("/done/" + part))),
                node("mail", "email", Map.of("subject", "after " + part, "body", "done"))));
    List<String> runIds = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      runIds.add(fire(api.anonymous(), tenant.id(), hook, Map.of("contact_id", contactId, "n", i)));
    }
    for (String runId : runIds) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> client(tenant).get("/api/v1/automation-runs/" + runId).at("/run/node_log/1"),
              entry -> "running".equals(entry.path("status").asString()));
    }
    assertThat(peer.received("/done/" + part)).as("killed while every run waits").isEmpty();

    restart.run();

    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> ended(client(tenant), sequenceId) == RUNS);
    for (String runId : runIds) {
      JsonNode run = client(tenant).get("/api/v1/automation-runs/" + runId).at("/run");
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(run.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
          .as(run.toString())
          .containsExactly(hook, "wait", "call", "mail");
    }
    assertThat(
            client(tenant)
                .get("/api/v1/automation-runs?sequence_id=" + sequenceId)
                .at("/total")
                .asInt())
        .as("no run more than those fired")
        .isEqualTo(RUNS);
    Map<String, Long> calls =
        peer.received("/done/" + part).stream()
            .collect(
                Collectors.groupingBy(r -> r.header("Idempotency-Key"), Collectors.counting()));
    assertThat(calls.keySet())
        .as("every run's call made")
        .containsExactlyInAnyOrderElementsOf(runIds.stream().map(id -> id + ":call").toList());
    assertThat(calls.values()).as("no call made twice").containsOnly(1L);
    Map<String, Long> mails =
        Arrays.stream(smtp.getReceivedMessages())
            .filter(m -> subject(m).equals("after " + part))
            .collect(Collectors.groupingBy(DistributedRestartIT::messageId, Collectors.counting()));
    assertThat(mails).as("every run's email sent").hasSize(RUNS);
    assertThat(mails.values()).as("no email sent twice").containsOnly(1L);
  }

  private int ended(ApiClient api, String sequenceId) {
    return api.get("/api/v1/automation-runs?status=completed&limit=1&sequence_id=" + sequenceId)
            .at("/total")
            .asInt()
        + api.get("/api/v1/automation-runs?status=failed&limit=1&sequence_id=" + sequenceId)
            .at("/total")
            .asInt();
  }

  private ApiClient client(ApiTest.TenantClient tenant) {
    return new ApiClient(api.baseUrl(), tenant.key());
  }

  private ApiServerProcess startApiServer() throws Exception {
    return ApiServerProcess.start(
        dataDir,
        "--spring.profiles.active=distributed",
        "--crm.secrets.key=" + SECRETS_KEY,
        "--spring.temporal.connection.target=" + temporal.target());
  }

  private WorkerProcess startWorker() throws Exception {
    return WorkerProcess.start(
        temporal.target(),
        "--spring.mail.host=127.0.0.1",
        "--spring.mail.port=" + smtp.getSmtp().getPort(),
        "--crm.mail.from=flows@crm.example",
        "--crm.secrets.key=" + SECRETS_KEY);
  }

  private void restartWorker() throws Exception {
    worker.kill();
    worker = startWorker();
    worker.awaitReady();
  }

  private void restartApiServer() throws Exception {
    api.kill();
    api = startApiServer().awaitReady();
  }

  private void restartTemporal() throws Exception {
    temporal.kill();
    temporal.startAgain();
  }

  private static String subject(MimeMessage message) {
    return unchecked(message, MimeMessage::getSubject);
  }

  private static String messageId(MimeMessage message) {
    return unchecked(message, MimeMessage::getMessageID);
  }

  private static String unchecked(MimeMessage message, MessageField field) {
    try {
      return field.read(message);
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  @FunctionalInterface
  private interface MessageField {
    String read(MimeMessage message) throws MessagingException;
  }

  @FunctionalInterface
  private interface Restart {
    void run() throws Exception;
  }
}
