package com.crmflow.api.compose;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.fire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.containers.wait.strategy.Wait;
import tools.jackson.databind.JsonNode;

/**
 * The docker-compose stack as users run it: images built from this repository, a real Temporal
 * server on PostgreSQL, Mailpit. It needs Docker, so it runs on its own: {@code ./mvnw -pl
 * api-server -am verify -Pcompose}; without a Docker engine it fails saying so. Takes minutes: it
 * builds both images. The same shape runs without Docker in every build (ClusterShapeIT, on
 * deploy/cluster).
 */
@Tag("compose")
class ComposeStackTest {

  private static final String KEY = "crm_compose_" + UUID.randomUUID().toString().replace("-", "");

  /** What docker-compose.yml requires of the environment, made for this run. */
  private static Map<String, String> secrets() {
    byte[] secretsKey = new byte[32];
    new java.security.SecureRandom().nextBytes(secretsKey);
    return Map.of(
        "CRM_SECRETS_KEY", java.util.Base64.getEncoder().encodeToString(secretsKey),
        "CRM_DB_PASSWORD", UUID.randomUUID().toString(),
        "CRM_ADMIN_TOKEN", UUID.randomUUID().toString(),
        "CRM_BOOTSTRAP_API_KEY", KEY);
  }

  private static ComposeContainer stack;

  @BeforeAll
  static void startTheStack() {
    assertThat(DockerClientFactory.instance().isDockerAvailable())
        .as(
            "ComposeStackTest runs the docker-compose stack and needs a Docker engine: install"
                + " Docker (https://docs.docker.com/engine/install/) and start it, or run the"
                + " build without -Pcompose")
        .isTrue();
    stack = composeStack();
    stack.start();
  }

  @AfterAll
  static void stopTheStack() {
    if (stack != null) {
      stack.stop();
    }
  }

  private static ComposeContainer composeStack() {
    return new ComposeContainer(new File("../docker-compose.yml"))
        .withBuild(true)
        .withEnv(secrets())
        .withExposedService(
            "api-server",
            8080,
            Wait.forHttp("/actuator/health")
                .forStatusCode(200)
                .withStartupTimeout(Duration.ofMinutes(15)))
        .withExposedService("temporal", 7233)
        .withExposedService("mailpit", 8025);
  }

  @Test
  void aTriggeredRunWaitsThroughRestartsSendsOneEmailAndShowsInTemporal() {
    ApiClient api = new ApiClient(url("api-server", 8080), KEY);
    String tenantId = tenantOfKey(api);
    String hook = "compose-" + UUID.randomUUID().toString().substring(0, 8);
    String subject = "Compose check " + hook;
    activeAutomation(
        api,
        chain(
            hook,
            node("wait", "delay", Map.of("delayHours", 10.0 / 3600)),
            node("mail", "email", Map.of("to", "ops@crm.example", "subject", subject))));

    String runId =
        fire(
            new ApiClient(url("api-server", 8080), null),
            UUID.fromString(tenantId),
            hook,
            Map.of());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                "running"
                    .equals(
                        api.get("/api/v1/automation-runs/" + runId)
                            .text("/run/node_log/1/status")));

    // both our processes restart while the run waits on its timer
    restart("workflow-worker");
    restart("api-server");

    await()
        .atMost(Duration.ofMinutes(3))
        .ignoreExceptions()
        .until(
            () ->
                "completed"
                    .equals(api.get("/api/v1/automation-runs/" + runId).text("/run/status")));
    JsonNode run = api.get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(run.at("/node_log/2/output/status").asString()).isEqualTo("sent");

    ApiResponse inbox =
        new ApiClient(url("mailpit", 8025), null).get("/api/v1/search?query=" + hook);
    assertThat(inbox.at("/messages").size()).as(inbox.toString()).isEqualTo(1);
    assertThat(inbox.at("/messages/0/Subject").asString()).isEqualTo(subject);

    WorkflowServiceStubs temporal =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder()
                .setTarget(
                    stack.getServiceHost("temporal", 7233)
                        + ":"
                        + stack.getServicePort("temporal", 7233))
                .build());
    try {
      var described =
          temporal
              .blockingStub()
              .describeWorkflowExecution(
                  DescribeWorkflowExecutionRequest.newBuilder()
                      .setNamespace("default")
                      .setExecution(WorkflowExecution.newBuilder().setWorkflowId("run-" + runId))
                      .build());
      assertThat(described.getWorkflowExecutionInfo().getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    } finally {
      temporal.shutdown();
    }
  }

  private static String tenantOfKey(ApiClient api) {
    // the bootstrap key's tenant: the trigger URL of a fresh webhook node names it
    String seq =
        api.post(
                "/api/v1/sequences",
                Map.of("name", "probe", "flow_type", "automation", "builder_mode", "visual"))
            .text("/sequence/id");
    api.put(
        "/api/sequences/" + seq + "/canvas",
        canvas(List.of(node("probe-" + seq, "webhook_trigger", Map.of())), List.of()));
    String path =
        api.get("/api/sequences/" + seq + "/nodes").text("/nodes/0/data/config/webhookPath");
    return path.split("/")[4];
  }

  private static void restart(String service) {
    ContainerState container =
        stack
            .getContainerByServiceName(service)
            .or(() -> stack.getContainerByServiceName(service + "-1"))
            .orElseThrow();
    DockerClientFactory.instance().client().restartContainerCmd(container.getContainerId()).exec();
  }

  private static String url(String service, int port) {
    return "http://"
        + stack.getServiceHost(service, port)
        + ":"
        + stack.getServicePort(service, port);
  }
}
