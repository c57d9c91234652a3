package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.WholeService;
import com.crmflow.api.support.WorkerProcess;
import io.temporal.testserver.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Issue 5's "a run waiting on a delay survives an api-server restart", without Docker: the
 * distributed shape (a workflow-worker process and the api-server on one port-bound Temporal test
 * server), the api-server stopped while the run waits and started again on the same data. The
 * worker's restart mid-wait is covered by replay in workflow-definitions' InterpreterDurabilityTest
 * (the Java test server cannot hand a cached workflow to a new worker; see
 * SeparateWorkerProcessTest), and both restarts against a real server by ComposeStackTest.
 */
class ApiServerRestartTest {

  private static final int TEMPORAL_PORT = WorkerProcess.freePort();
  private static final TestServer.PortBoundTestServer TEMPORAL =
      TestServer.createPortBoundServer(TEMPORAL_PORT, true);

  /** Long enough for the api-server to stop before it ends, short for a test. */
  private static final double DELAY_SECONDS = 10;

  @AfterAll
  static void stopTemporal() {
    TEMPORAL.close();
  }

  private static ConfigurableApplicationContext startApiServer(Path dataDir) {
    return WholeService.start(
        dataDir,
        new String[] {"distributed"},
        "--spring.temporal.connection.target=127.0.0.1:" + TEMPORAL_PORT);
  }

  @Test
  void aRunWaitingOnADelaySurvivesAnApiServerRestartAndCompletesOnce(@TempDir Path dataDir)
      throws Exception {
    try (LocalHttpServer peer = new LocalHttpServer();
        WorkerProcess worker = WorkerProcess.start(TEMPORAL_PORT)) {
      String key;
      String runId;
      try (ConfigurableApplicationContext first = startApiServer(dataDir)) {
        ApiTest.TenantClient tenant = WholeService.newTenant(first);
        UUID tenantId = tenant.id();
        key = tenant.key();
        ApiClient api = tenant.api();
        activeAutomation(
            api,
            canvas(
                List.of(
                    node("hook", "webhook_trigger", Map.of()),
                    node("wait", "delay", Map.of("delayHours", DELAY_SECONDS / 3600)),
                    node(
                        "call",
                        "http_request",
                        Map.of("method", "POST", "url", peer.url("/done")))),
                List.of(edge("e1", "hook", "wait"), edge("e2", "wait", "call"))));
        worker.awaitReady();
        runId =
            fire(
                new ApiClient(WholeService.baseUrl(first), null),
                tenantId,
                "hook",
                Map.of("id", 1));
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () -> api.get("/api/v1/automation-runs/" + runId).at("/run/node_log/1/status"),
                status -> "running".equals(status.asString()));
      }
      assertThat(peer.received("/done")).as("the delay has not ended yet").isEmpty();

      // the api-server is down: the worker wakes the run and makes the call; the run's recording
      // waits on the crm queue for an api-server
      await().atMost(Duration.ofSeconds(30)).until(() -> !peer.received("/done").isEmpty());

      try (ConfigurableApplicationContext second = startApiServer(dataDir)) {
        JsonNode run =
            awaitRun(
                new ApiClient(WholeService.baseUrl(second), key), runId, Duration.ofSeconds(30));

        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
        assertThat(run.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
            .containsExactly("hook", "wait", "call");
        assertThat(run.get("node_log").valueStream().map(e -> e.get("status").asString()))
            .containsOnly("completed");
        assertThat(peer.received("/done")).hasSize(1);
        assertThat(peer.received("/done").get(0).header("Idempotency-Key"))
            .isEqualTo(runId + ":call");
      }
    }
  }
}
