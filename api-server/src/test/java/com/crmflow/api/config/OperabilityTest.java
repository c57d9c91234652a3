package com.crmflow.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import org.junit.jupiter.api.Test;

class OperabilityTest extends ApiTest {

  @Test
  void healthReportsDatabaseAndTemporal() {
    ApiResponse health = anonymous().get("/actuator/health");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.text("/status")).isEqualTo("UP");
    assertThat(health.text("/components/db/status")).isEqualTo("UP");
    assertThat(health.text("/components/temporal/status")).isEqualTo("UP");
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
  }
}
