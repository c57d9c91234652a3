package com.crmflow.api.config;

import io.temporal.serviceclient.WorkflowServiceStubs;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/** /actuator/health component "temporal": is the Temporal frontend answering? */
@Component("temporal")
class TemporalHealthIndicator extends AbstractHealthIndicator {

  private final WorkflowServiceStubs serviceStubs;

  TemporalHealthIndicator(WorkflowServiceStubs serviceStubs) {
    super("Temporal health check failed");
    this.serviceStubs = serviceStubs;
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
        .withDetail("target", target == null ? "in-process (embedded)" : target);
  }
}
