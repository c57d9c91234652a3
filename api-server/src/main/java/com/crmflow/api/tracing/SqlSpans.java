package com.crmflow.api.tracing;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertyResolver;
import org.springframework.core.env.PropertySource;
import org.springframework.util.StringUtils;

/**
 * SQL statements are spans only when spans leave the process: the JDBC observations
 * (datasource-proxy under every connection and statement, an observation per statement) are on when
 * an OTLP endpoint is configured ({@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} or {@code
 * management.opentelemetry.tracing.export.otlp.endpoint}) and its export is not turned off, and off
 * otherwise, where a statement's span would reach nobody. They took about 4% of the service's CPU
 * per run with nothing exported (docs/benchmarks.md). An explicit {@code
 * jdbc.datasource-proxy.enabled} wins either way (an exporter of one's own, for instance).
 *
 * <p>The setting is answered when the context asks for it, after every environment post-processor
 * has run: the OpenTelemetry environment variables are mapped to their properties by one of them.
 */
public class SqlSpans implements EnvironmentPostProcessor {

  /** datasource-micrometer's switch of its whole auto-configuration. */
  static final String PROXY_ENABLED = "jdbc.datasource-proxy.enabled";

  static final String OTLP_ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    if (!environment.getPropertySources().contains(Switch.NAME)) {
      environment.getPropertySources().addLast(new Switch(environment));
    }
  }

  /** Whether spans leave the process by the standard OTLP exporter. */
  static boolean exported(PropertyResolver settings) {
    return StringUtils.hasText(settings.getProperty(OTLP_ENDPOINT))
        && settings.getProperty("management.tracing.export.otlp.enabled", Boolean.class, true)
        && settings.getProperty("management.tracing.export.enabled", Boolean.class, true);
  }

  /** The lowest-ranked source of {@link #PROXY_ENABLED}: whether spans are exported. */
  static final class Switch extends PropertySource<Object> {

    static final String NAME = "crmSqlSpans";

    // not the source: Spring Boot walks into a property source whose source is an environment,
    // and this one is in that environment
    private final PropertyResolver settings;

    Switch(PropertyResolver settings) {
      super(NAME, NAME);
      this.settings = settings;
    }

    @Override
    public Object getProperty(String name) {
      return PROXY_ENABLED.equals(name) ? Boolean.toString(exported(settings)) : null;
    }
  }
}
