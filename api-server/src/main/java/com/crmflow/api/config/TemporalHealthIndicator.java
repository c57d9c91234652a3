package com.crmflow.api.config;

import com.crmflow.api.embedded.EmbeddedInfrastructure;
import io.temporal.serviceclient.WorkflowServiceStubs;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * /actuator/health component "temporal": is the Temporal frontend answering? Its details name the
 * target and, on the embedded defaults, say that it is the embedded dev server and where its UI is.
 */
@Component("temporal")
class TemporalHealthIndicator extends AbstractHealthIndicator {

  private final WorkflowServiceStubs serviceStubs;
  private final Environment environment;

  TemporalHealthIndicator(WorkflowServiceStubs serviceStubs, Environment environment) {
    super("Temporal health check failed");
    this.serviceStubs = serviceStubs;
    this.environment = environment;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    var response = serviceStubs.healthCheck();
    String target = serviceStubs.getOptions().getTarget();
    builder
        .status(
            response.getStatus().name().equals("SERVING")
                ? org.springframework.boot.health.contributor.Status.UP
                : org.springframework.boot.health.contributor.Status.DOWN)
        .withDetail("target", target);
    String ui = environment.getProperty(EmbeddedInfrastructure.TEMPORAL_UI_URL);
    builder.withDetail("engine", ui != null ? "embedded Temporal dev server" : "Temporal server");
    if (ui != null) {
      builder.withDetail("ui", ui);
    }
  }
}
