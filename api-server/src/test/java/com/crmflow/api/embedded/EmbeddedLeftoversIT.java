package com.crmflow.api.embedded;

import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitNodeLog;
import static com.crmflow.api.support.SequenceSupport.fire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiServerProcess;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.WorkerProcess;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The embedded defaults when the service is killed ({@code kill -9}): its PostgreSQL and Temporal
 * dev server outlive it, and the next start on the same data directory finds them, stops them and
 * starts its own, with every workflow and row they held. A second service on a directory in use is
 * refused.
 */
class EmbeddedLeftoversIT {

  private static final String[] EMBEDDED_ON_FREE_PORTS = {
    "--crm.embedded.temporal-port=0", "--crm.embedded.temporal-ui-port=0"
  };

  private static String[] embeddedOn(int temporalPort) {
    return new String[] {
      "--crm.embedded.temporal-port=" + temporalPort, "--crm.embedded.temporal-ui-port=0"
    };
  }

  @Test
  void theStartAfterAKillStopsTheLeftoverServersAndKeepsWhatTheyHeld() throws Exception {
    Path dataDir = Files.createTempDirectory(Path.of("target"), "leftovers-");
    int temporalPort = WorkerProcess.freePort();
    ApiServerProcess first = ApiServerProcess.start(dataDir, embeddedOn(temporalPort)).awaitReady();
    ApiTest.TenantClient tenant = first.newTenant();
    activeAutomation(tenant.api(), Flows.waitADayThenCall("hook", "https://example.com/later"));
    String runId = fire(first.anonymous(), tenant.id(), "hook", Map.of("n", 1));
    awaitNodeLog(tenant.api(), runId, 2); // waiting on its day
    WorkflowExecution execution = describe(temporalPort, runId).getExecution();

    ProcessHandle postgres = postgresOf(dataDir);
    ProcessHandle temporal = devServerOf(dataDir);
    first.kill();
    assertThat(postgres.isAlive()).as("PostgreSQL outlives the killed service").isTrue();
    assertThat(temporal.isAlive()).as("the dev server outlives the killed service").isTrue();

    try (ApiServerProcess second =
        ApiServerProcess.start(dataDir, embeddedOn(temporalPort)).awaitReady()) {
      assertThat(postgres.isAlive()).as("the leftover PostgreSQL was stopped").isFalse();
      assertThat(temporal.isAlive()).as("the leftover dev server was stopped").isFalse();
      assertThat(second.log())
          .contains("Stopping PostgreSQL (pid " + postgres.pid() + ") left running on")
          .contains("Stopped a Temporal dev server (pid " + temporal.pid() + ") left running on");
      assertThat(devServersOf(dataDir)).as("one dev server on the file").hasSize(1);
      assertThat(devServerOf(dataDir).parent().map(ProcessHandle::pid)).contains(second.pid());

      var api = new ApiClient(second.baseUrl(), tenant.key());
      assertThat(api.get("/api/v1/automation-runs/" + runId).text("/run/status"))
          .isEqualTo("running");
      WorkflowExecutionDescription kept = describe(temporalPort, runId);
      assertThat(kept.getExecution()).as("the same execution").isEqualTo(execution);
      assertThat(kept.getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);

      assertThat(api.post("/api/v1/automation-runs/" + runId + "/cancel", Map.of()).status())
          .isEqualTo(200);
      await()
          .atMost(Patience.EVENTUALLY)
          .until(
              () -> describe(temporalPort, runId).getStatus(),
              WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CANCELED::equals);
    }
    assertThat(devServersOf(dataDir)).as("a graceful stop stops the dev server").isEmpty();
  }

  @Test
  void aSecondServiceOnADataDirectoryInUseIsRefusedAndTheFirstGoesOn() throws Exception {
    Path dataDir = Files.createTempDirectory(Path.of("target"), "in-use-");
    try (ApiServerProcess first =
        ApiServerProcess.start(dataDir, EMBEDDED_ON_FREE_PORTS).awaitReady()) {
      ApiServerProcess second = ApiServerProcess.start(dataDir, EMBEDDED_ON_FREE_PORTS);

      assertThat(second.awaitExit(Duration.ofSeconds(60))).isNotZero();
      assertThat(second.log())
          .contains("APPLICATION FAILED TO START")
          .contains("is in use by another running service (pid " + first.pid() + ")")
          .contains("--crm.data-dir=<path>");
      assertThat(devServersOf(dataDir)).hasSize(1);
      assertThat(first.newTenant().api().get("/api/v1/contacts").status()).isEqualTo(200);
    }
  }

  private static WorkflowExecutionDescription describe(int temporalPort, String runId) {
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder()
                .setTarget("127.0.0.1:" + temporalPort)
                .build());
    try {
      return WorkflowClient.newInstance(stubs).newUntypedWorkflowStub("run-" + runId).describe();
    } finally {
      stubs.shutdownNow();
    }
  }

  private static ProcessHandle postgresOf(Path dataDir) throws Exception {
    long pid =
        Long.parseLong(
            Files.readAllLines(dataDir.resolve("postgres/postmaster.pid")).get(0).trim());
    return ProcessHandle.of(pid).orElseThrow();
  }

  private static ProcessHandle devServerOf(Path dataDir) {
    List<ProcessHandle> found = devServersOf(dataDir);
    assertThat(found).hasSize(1);
    return found.get(0);
  }

  private static List<ProcessHandle> devServersOf(Path dataDir) {
    String db = dataDir.resolve("temporal/temporal.db").toAbsolutePath().normalize().toString();
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(
            p -> {
              List<String> args = List.of(p.info().arguments().orElse(new String[0]));
              return args.contains("start-dev") && args.contains(db);
            })
        .toList();
  }
}
