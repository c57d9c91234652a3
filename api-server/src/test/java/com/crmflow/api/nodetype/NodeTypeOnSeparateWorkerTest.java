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
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.DevServers;
import com.crmflow.api.support.WorkerProcess;
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
 * A node type of one's own on the stand-alone worker: {@link AuditStampNode} and its
 * auto-configuration in a jar of their own, which the workflow-worker's jar (which holds neither)
 * takes on its {@code loader.path}. This api-server (profile {@code distributed}: crm queue only)
 * has the type as a bean, so it checks and starts the flow; only the worker process runs it.
 */
@ActiveProfiles("distributed")
@DirtiesContext
@Import(TestNodeTypes.class)
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

  @Autowired private WorkerFactory workers;

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

    try (WorkerProcess worker =
        WorkerProcess.startWithLoaderPath(
            List.of(nodeTypesJar()), TEMPORAL.target(), "--crm.secrets.key=" + SECRETS_KEY)) {
      worker.awaitReady();
      String runId =
          fire(anonymous(), tenant.id(), hook, Map.of("ref", "order-18", "contact_id", contactId));
      JsonNode run = awaitRun(tenant.api(), runId);

      StampedRuns.assertStamped(
          run, runId, jdbc, "seen order-18", "warn", "worker.ada@example.com");
    }
    // this api-server polls only the crm queue: the workflow ran in the worker process
    assertThat(workers.tryGetWorker("crm")).isNotNull();
    assertThat(workers.tryGetWorker("automation")).isNull();
  }

  /**
   * The node type packaged as an operator would: its classes and its auto-configuration, listed
   * where Spring Boot looks for auto-configurations.
   */
  private static Path nodeTypesJar() throws IOException {
    Path jar = Files.createTempFile(Path.of("target"), "node-types-", ".jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Class<?> type : List.of(AuditStampNode.class, AuditStampAutoConfiguration.class)) {
        String entry = type.getName().replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(entry));
        try (InputStream in = type.getClassLoader().getResourceAsStream(entry)) {
          in.transferTo(out);
        }
        out.closeEntry();
      }
      out.putNextEntry(
          new JarEntry(
              "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"));
      out.write(
          (AuditStampAutoConfiguration.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    return jar;
  }
}
