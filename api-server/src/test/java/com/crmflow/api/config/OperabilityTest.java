package com.crmflow.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;

class OperabilityTest extends ApiTest {

  @Autowired private WorkflowServiceStubs serviceStubs;
  @Autowired private Environment environment;

  @Test
  void healthReportsDatabaseAndTemporal() {
    ApiResponse health = anonymous().get("/actuator/health");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.text("/status")).isEqualTo("UP");
    assertThat(health.text("/components/db/status")).isEqualTo("UP");
    assertThat(health.text("/components/temporal/status")).isEqualTo("UP");
  }

  @Test
  void theEmbeddedTemporalIsReachedInProcessAndOnItsPort() {
    // this JVM's client and workers use the in-process channel, not the TCP port
    assertThat(serviceStubs.getOptions().getTarget()).isNull();
    assertThat(serviceStubs.getOptions().getChannel().authority()).doesNotContain(":");
    // the port still serves the CLI and anything else outside this JVM
    String target = environment.getProperty("spring.temporal.connection.target");
    WorkflowServiceStubs overTcp =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
    try {
      assertThat(overTcp.healthCheck().getStatus().name()).isEqualTo("SERVING");
    } finally {
      overTcp.shutdownNow();
    }
  }

  /** The embedded PostgreSQL library's defaults are for throwaway databases; ours is not one. */
  @Test
  void theEmbeddedDatabaseCommitsToDiskBeforeACommitReturns() {
    assertThat(jdbc.sql("show fsync").query(String.class).single()).isEqualTo("on");
    assertThat(jdbc.sql("show synchronous_commit").query(String.class).single()).isEqualTo("on");
  }

  @Test
  void prometheusMetricsAreServed() {
    newTenant().api().get("/api/v1/contacts");
    ApiResponse metrics = anonymous().get("/actuator/prometheus");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.rawBody())
        .contains("jvm_memory_used_bytes")
        .contains("http_server_requests");
  }

  @Test
  void openApiDocumentListsTheEndpoints() {
    ApiResponse docs = anonymous().get("/v3/api-docs");
    assertThat(docs.status()).isEqualTo(200);
    assertThat(docs.at("/paths").has("/api/v1/contacts")).isTrue();
    assertThat(docs.at("/paths").has("/api/v1/custom-fields")).isTrue();
    assertThat(docs.at("/components/securitySchemes/apiKey/scheme").asString()).isEqualTo("bearer");
    // bodies read as a JSON tree are a free-form object, not the tree class's bean properties
    JsonNode contactBody =
        docs.at("/paths/~1api~1v1~1contacts/post/requestBody/content/application~1json/schema");
    assertThat(contactBody.at("/type").asString()).isEqualTo("object");
    assertThat(contactBody.at("/properties").isMissingNode()).isTrue();
  }
}
