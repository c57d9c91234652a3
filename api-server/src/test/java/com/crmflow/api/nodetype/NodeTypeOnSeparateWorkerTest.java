package com.crmflow.api.nodetype;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.DevServers;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.RunHistory;
import com.crmflow.api.support.WorkerProcess;
import com.crmflow.worker.WorkerRegistration;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.RecordWatchActivities;
import com.crmflow.workflow.node.NodeSecrets;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.WorkerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Node types of one's own on the stand-alone worker: {@link AuditStampNode}, and {@link
 * PartnerNoticeNode} with the activity it declares, each with its auto-configuration, in a jar of
 * their own, which the workflow-worker's jar (which holds none of them) takes on its {@code
 * loader.path}. This api-server (profile {@code distributed}: crm queue only) has the types as
 * beans, so it checks and starts the flows and seals and masks their secrets; only the worker
 * process runs them, and only it hosts the partner's activity.
 */
@ActiveProfiles("distributed")
@DirtiesContext
@Import({TestNodeTypes.class, PartnerNoticeAutoConfiguration.class})
class NodeTypeOnSeparateWorkerTest extends ApiTest {

  private static final TemporalDevServer TEMPORAL = DevServers.start();

  /** The one key both processes are given: the distributed profile makes none. */
  private static final String SECRETS_KEY =
      Base64.getEncoder().encodeToString(UUID.randomUUID().toString().substring(0, 32).getBytes());

  @DynamicPropertySource
  static void temporal(DynamicPropertyRegistry registry) {
    registry.add("spring.temporal.connection.target", TEMPORAL::target);
    registry.add("crm.secrets.key", () -> SECRETS_KEY);
  }

  /** The server stops after this class's context, whose workers poll it, has closed. */
  @TestConfiguration
  static class StopTemporalAfterTheWorkers {
    @Bean
    DisposableBean stopTemporal() {
      return TEMPORAL::close;
    }
  }

  /** What the partner is told, and the key it expects: never shown, never in history. */
  private static final String PARTNER_KEY = "pk-" + UUID.randomUUID();

  private static LocalHttpServer partner;
  private static WorkerProcess worker;

  @BeforeAll
  static void startTheWorker() throws IOException {
    partner = new LocalHttpServer();
    worker =
        WorkerProcess.startWithLoaderPath(
            List.of(nodeTypesJar()), TEMPORAL.target(), "--crm.secrets.key=" + SECRETS_KEY);
    worker.awaitReady();
  }

  @AfterAll
  static void stopTheWorker() throws InterruptedException {
    worker.close();
    partner.close();
  }

  @Autowired private WorkerFactory workers;
  @Autowired private WorkerRegistration registration;
  @Autowired private WorkflowClient temporal;

  @Test
  void aWorkerWithTheTypesJarOnItsLoaderPathRunsTheType() throws Exception {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node(
                    "stamp",
                    "audit_stamp",
                    Map.of("note", "seen {{trigger.ref}}", "level", "warn", "about", "contact"))),
            List.of(edge("e1", hook, "stamp"))));
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "worker.ada@example.com"))
            .text("/contact/id");

    String runId =
        fire(anonymous(), tenant.id(), hook, Map.of("ref", "order-18", "contact_id", contactId));
    JsonNode run = awaitRun(tenant.api(), runId);

    StampedRuns.assertStamped(run, runId, jdbc, "seen order-18", "warn", "worker.ada@example.com");
    // this api-server polls only the crm queue: the workflow ran in the worker process
    assertThat(workers.tryGetWorker("crm")).isNotNull();
    assertThat(workers.tryGetWorker("automation")).isNull();
  }

  @Test
  void aTypesOwnActivityRunsOnTheWorkerWithItsSecretOpenedThereAndShownNowhere() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    String sequenceId =
        activeAutomation(
            tenant.api(),
            canvas(
                List.of(
                    node(hook, "webhook_trigger", Map.of()),
                    node(
                        "notice",
                        "partner_notice",
                        Map.of(
                            "url",
                            partner.url("/notices"),
                            "note",
                            "order {{trigger.ref}} shipped",
                            "apiKey",
                            PARTNER_KEY))),
                List.of(edge("e1", hook, "notice"))));

    String runId = fire(anonymous(), tenant.id(), hook, Map.of("ref", "order-21"));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    JsonNode notice = run.at("/node_log/1");
    assertThat(notice.get("nodeType").asString()).isEqualTo("partner_notice");
    assertThat(notice.at("/output/status").asInt()).isEqualTo(200);
    assertThat(notice.at("/output/note").asString()).isEqualTo("order order-21 shipped");
    // the worker's activity opened the key: the partner got it in clear, once
    List<LocalHttpServer.Received> told = partner.received("/notices");
    assertThat(told).hasSize(1);
    assertThat(told.get(0).header("X-Api-Key")).isEqualTo(PARTNER_KEY);
    assertThat(told.get(0).header("X-Run-Id")).isEqualTo(runId);
    assertThat(told.get(0).body()).isEqualTo("order order-21 shipped");
    // the partner's activity is the worker's: this api-server hosts the crm queue's alone
    assertThat(registration.hosted()).containsOnlyKeys(TaskQueues.CRM);
    assertThat(registration.hosted().get(TaskQueues.CRM))
        .contains(RecordWatchActivities.class)
        .doesNotContain(PartnerNoticeActivities.class);

    // the API shows the key as the mask: the canvas, the run's node log and its input
    ApiResponse shownCanvas = tenant.api().get("/api/sequences/" + sequenceId + "/canvas");
    assertThat(shownCanvas.at("/canvas/nodes"))
        .filteredOn(shown -> shown.get("id").asString().equals("notice"))
        .singleElement()
        .satisfies(
            shown ->
                assertThat(shown.at("/data/config/apiKey").asString()).isEqualTo(NodeSecrets.MASK));
    assertThat(notice.at("/input/config/apiKey").asString()).isEqualTo(NodeSecrets.MASK);
    ApiResponse shownRun = tenant.api().get("/api/v1/automation-runs/" + runId);
    assertThat(Stream.of(shownCanvas.rawBody(), shownRun.rawBody()))
        .noneMatch(shown -> shown.contains(PARTNER_KEY) || shown.contains("sealed:"));
    String logged =
        jdbc.sql(
                "select string_agg(input::text || output::text, ' ') from run_node_log where run_id = ?")
            .param(UUID.fromString(runId))
            .query(String.class)
            .single();
    assertThat(logged).contains(NodeSecrets.MASK).doesNotContain(PARTNER_KEY, "sealed:");
    // stored sealed, and what Temporal keeps holds only the sealed key
    String stored =
        jdbc.sql("select nodes::text from canvas_version where sequence_id = ? and version = 1")
            .param(UUID.fromString(sequenceId))
            .query(String.class)
            .single();
    assertThat(stored).contains(NodeSecrets.SEALED_PREFIX).doesNotContain(PARTNER_KEY);
    String history = RunHistory.payloads(temporal, runId);
    assertThat(history).contains(NodeSecrets.SEALED_PREFIX).doesNotContain(PARTNER_KEY);
  }

  /**
   * The node type packaged as an operator would: its classes and its auto-configuration, listed
   * where Spring Boot looks for auto-configurations.
   */
  private static Path nodeTypesJar() throws IOException {
    Path jar = Files.createTempFile(Path.of("target"), "node-types-", ".jar");
    List<Class<?>> autoConfigurations =
        List.of(AuditStampAutoConfiguration.class, PartnerNoticeAutoConfiguration.class);
    List<Class<?>> types =
        List.of(
            AuditStampNode.class,
            PartnerNoticeNode.class,
            PartnerNoticeActivities.class,
            PartnerNoticeActivitiesImpl.class);
    Path classes = Path.of("target/test-classes");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Class<?> type : Stream.concat(types.stream(), autoConfigurations.stream()).toList()) {
        String entry = type.getName().replace('.', '/');
        // the class and those nested in it (a record of its activity's arguments, say)
        try (Stream<Path> files = Files.list(classes.resolve(entry).getParent())) {
          String simple = type.getSimpleName();
          for (Path file :
              files
                  .filter(
                      f ->
                          f.getFileName().toString().equals(simple + ".class")
                              || f.getFileName().toString().startsWith(simple + "$"))
                  .toList()) {
            out.putNextEntry(
                new JarEntry(entry.substring(0, entry.lastIndexOf('/') + 1) + file.getFileName()));
            try (InputStream in = Files.newInputStream(file)) {
              in.transferTo(out);
            }
            out.closeEntry();
          }
        }
      }
      out.putNextEntry(
          new JarEntry(
              "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"));
      for (Class<?> autoConfiguration : autoConfigurations) {
        out.write((autoConfiguration.getName() + "\n").getBytes(StandardCharsets.UTF_8));
      }
      out.closeEntry();
    }
    return jar;
  }
}
