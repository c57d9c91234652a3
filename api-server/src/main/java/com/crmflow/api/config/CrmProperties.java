package com.crmflow.api.config;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The service's own settings, all under {@code crm.}; every one is listed in the README.
 *
 * @param dataDir where the embedded PostgreSQL and Temporal dev server keep their data
 * @param adminToken bearer token of the admin API; the admin API is off while it is unset
 * @param maxRequestSize largest request body accepted on the API (413 beyond)
 */
@ConfigurationProperties("crm")
public record CrmProperties(
    @DefaultValue("./data") Path dataDir,
    String adminToken,
    @DefaultValue("1MB") DataSize maxRequestSize,
    @DefaultValue Embedded embedded,
    @DefaultValue Temporal temporal,
    @DefaultValue Bootstrap bootstrap,
    @DefaultValue RateLimit rateLimit,
    @DefaultValue Generate generate) {

  /**
   * The embedded defaults: each part starts only while its real counterpart is not configured
   * ({@code spring.datasource.url}, {@code spring.temporal.connection.target}).
   *
   * @param postgresPort port of the embedded PostgreSQL (0: any free port)
   * @param temporalPort gRPC port of the embedded Temporal dev server (0: any free port)
   * @param temporalUiPort port of its Temporal UI (0: any free port)
   */
  public record Embedded(
      @DefaultValue("0") int postgresPort,
      @DefaultValue("7233") int temporalPort,
      @DefaultValue("8233") int temporalUiPort) {}

  /**
   * @param cli the {@code temporal} CLI whose dev server is the embedded Temporal; unset: looked up
   *     on PATH, then in the tool cache, else built there (see TemporalCli)
   */
  public record Temporal(String cli) {}

  /**
   * @param apiKey a key to create on first start (in tenant "default", every scope) if absent
   */
  public record Bootstrap(String apiKey) {}

  /**
   * Per-key request budget on the authenticated API (a key may carry its own limit).
   *
   * @param enabled whether requests are limited at all
   * @param requestsPerMinute the default budget of a key, refilled evenly over the minute
   */
  public record RateLimit(
      @DefaultValue("true") boolean enabled, @DefaultValue("1200") int requestsPerMinute) {}

  /**
   * POST /generate.
   *
   * @param requestsPerMinute generations per tenant per minute (429 beyond)
   * @param maxPromptLength longest prompt accepted (400 beyond)
   */
  public record Generate(
      @DefaultValue("10") int requestsPerMinute, @DefaultValue("2000") int maxPromptLength) {}

  public boolean adminApiEnabled() {
    return adminToken != null && !adminToken.isBlank();
  }
}
