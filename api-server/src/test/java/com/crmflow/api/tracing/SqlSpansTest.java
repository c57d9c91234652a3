package com.crmflow.api.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.mock.env.MockEnvironment;

/** The JDBC observations' switch follows the span export, and an explicit setting wins. */
class SqlSpansTest {

  private static String proxyEnabled(MockEnvironment environment) {
    switchOn(environment);
    return environment.getProperty(SqlSpans.PROXY_ENABLED);
  }

  /** As Spring Boot prepares an environment: its configuration property sources attached. */
  private static void switchOn(MockEnvironment environment) {
    ConfigurationPropertySources.attach(environment);
    new SqlSpans().postProcessEnvironment(environment, null);
  }

  @Test
  void offWhenNoOtlpEndpointIsConfigured() {
    assertThat(proxyEnabled(new MockEnvironment())).isEqualTo("false");
    assertThat(proxyEnabled(new MockEnvironment().withProperty(SqlSpans.OTLP_ENDPOINT, " ")))
        .isEqualTo("false");
  }

  @Test
  void onWhenSpansAreExportedByOtlp() {
    assertThat(
            proxyEnabled(
                new MockEnvironment()
                    .withProperty(SqlSpans.OTLP_ENDPOINT, "http://127.0.0.1:4318/v1/traces")))
        .isEqualTo("true");
  }

  @Test
  void offWhenTheExportIsTurnedOffDespiteAnEndpoint() {
    String endpoint = "http://127.0.0.1:4318/v1/traces";
    assertThat(
            proxyEnabled(
                new MockEnvironment()
                    .withProperty(SqlSpans.OTLP_ENDPOINT, endpoint)
                    .withProperty("management.tracing.export.otlp.enabled", "false")))
        .isEqualTo("false");
    assertThat(
            proxyEnabled(
                new MockEnvironment()
                    .withProperty(SqlSpans.OTLP_ENDPOINT, endpoint)
                    .withProperty("management.tracing.export.enabled", "false")))
        .isEqualTo("false");
  }

  @Test
  void anExplicitSettingWins() {
    assertThat(proxyEnabled(new MockEnvironment().withProperty(SqlSpans.PROXY_ENABLED, "true")))
        .isEqualTo("true");
    assertThat(
            proxyEnabled(
                new MockEnvironment()
                    .withProperty(SqlSpans.OTLP_ENDPOINT, "http://127.0.0.1:4318/v1/traces")
                    .withProperty(SqlSpans.PROXY_ENABLED, "false")))
        .isEqualTo("false");
  }

  @Test
  void theEndpointIsReadWhenTheSettingIsAskedForNotWhenTheSwitchIsAdded() {
    // the OpenTelemetry environment variables are mapped by a post-processor that may run later
    MockEnvironment environment = new MockEnvironment();
    switchOn(environment);
    environment.setProperty(SqlSpans.OTLP_ENDPOINT, "http://127.0.0.1:4318/v1/traces");

    assertThat(environment.getProperty(SqlSpans.PROXY_ENABLED)).isEqualTo("true");
  }
}
