package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.DevServers;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.WorkerProcess;
import com.crmflow.shared.outbound.CauseHeader;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.temporal.worker.WorkerFactory;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The distributed shape: this api-server (profile {@code distributed}: crm queue only) and a
 * workflow-worker started as its own process from its jar, both on one Temporal dev server. Only
 * the worker process can run the workflow and the http_request; only api-server can record the run
 * and write the contact. The worker shares api-server's secrets key.
 */
@ActiveProfiles("distributed")
@DirtiesContext
class SeparateWorkerProcessTest extends ApiTest {

  private static final TemporalDevServer TEMPORAL = DevServers.start();

  /** The one key both processes are given: the distributed profile makes none. */
  private static final String SECRETS_KEY =
      Base64.getEncoder().encodeToString(UUID.randomUUID().toString().substring(0, 32).getBytes());

  @DynamicPropertySource
  static void temporal(DynamicPropertyRegistry registry) {
    registry.add("spring.temporal.connection.target", TEMPORAL::target);
    registry.add("crm.secrets.key", () -> SECRETS_KEY);
  }

  /**
   * This class's context is closed when the class is done (not at the end of the test run, with a
   * dead server its workers would spend the JVM's exit retrying polls), and the server after the
   * context's workers have stopped.
   */
  @TestConfiguration
  static class StopTemporalAfterTheWorkers {
    @Bean
    DisposableBean stopTemporal() {
      return TEMPORAL::close;
    }
  }

  @Autowired private WorkerFactory workers;
  @Autowired private CauseHeader causeHeader;

  private LocalHttpServer peer;
  private WorkerProcess worker;
  private GreenMail smtp;

  @BeforeEach
  void setUp() throws IOException {
    peer = new LocalHttpServer();
    smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", "smtp"));
    smtp.start();
    worker =
        WorkerProcess.start(
            TEMPORAL.target(),
            "--spring.mail.host=127.0.0.1",
            "--spring.mail.port=" + smtp.getSmtp().getPort(),
            "--crm.mail.from=flows@crm.example",
            "--crm.secrets.key=" + SECRETS_KEY);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    peer.close();
    worker.close();
    smtp.stop();
  }

  @Test
  void aRunCompletesAcrossTheTwoProcesses() throws Exception {
    TenantClient tenant = newTenant();
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "ada@example.com"))
            .text("/contact/id");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node("wait", "delay", Map.of("delayHours", 1.0 / 3600)),
            node(
                "call",
                "http_request",
                Map.of(
                    "method",
                    "POST",
                    "url",
                    peer.url("/done"),
                    "headers",
                    Map.of("Authorization", "Bearer {{trigger.token}}-sk-live"))),
            node(
                "mark",
                "crm_update",
                Map.of("entityType", "contact", "fieldMappings", Map.of("title", "Done"))),
            node("mail", "email", Map.of("subject", "Done", "body", "All done"))));
    worker.awaitReady();

    String runId =
        fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId, "token", "t1"));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(peer.received("/done")).hasSize(1);
    // keyed with the shared key: the worker's is the one api-server computes
    assertThat(peer.received("/done").get(0).header("Idempotency-Key"))
        .isEqualTo(causeHeader.idempotencyKey(tenant.id(), runId + ":call"));
    // sealed in the canvas and in Temporal, unsealed by the worker process with the shared key
    assertThat(peer.received("/done").get(0).header("Authorization"))
        .isEqualTo("Bearer t1-sk-live");
    assertThat(tenant.api().get("/api/v1/contacts/" + contactId).text("/contact/title"))
        .isEqualTo("Done");
    assertThat(run.get("node_log").valueStream().map(e -> e.get("status").asString()))
        .containsExactly("completed", "completed", "completed", "completed", "completed");
    // sent by the worker process, after Temporal confirmed its hand-over mark (no database there)
    MimeMessage[] sent = smtp.getReceivedMessages();
    assertThat(sent).hasSize(1);
    assertThat(sent[0].getSubject()).isEqualTo("Done");
    assertThat(sent[0].getAllRecipients()[0].toString()).isEqualTo("ada@example.com");
    assertThat(sent[0].getMessageID()).isEqualTo("<" + runId + ".mail@crmflow.local>");
    // api-server (profile distributed) polls only the crm queue: the worker process ran the rest
    assertThat(workers.tryGetWorker("crm")).isNotNull();
    assertThat(workers.tryGetWorker("automation")).isNull();
    assertThat(workers.tryGetWorker("integrations")).isNull();
  }
}
