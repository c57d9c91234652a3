package com.crmflow.api.temporal;

import io.temporal.serviceclient.GrpcCompression;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.spring.boot.TemporalOptionsCustomizer;
import java.util.Locale;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * gRPC to a Temporal server on this machine goes uncompressed. The SDK gzips every message by
 * default and the server answers in kind: on loopback that saves no time on the wire and costs CPU
 * on both ends for every start, poll and workflow task (docs/benchmarks.md). A server elsewhere
 * keeps the SDK's gzip.
 */
@Component
class LoopbackCompression
    implements TemporalOptionsCustomizer<WorkflowServiceStubsOptions.Builder> {

  private final Environment environment;

  LoopbackCompression(Environment environment) {
    this.environment = environment;
  }

  @Override
  public WorkflowServiceStubsOptions.Builder customize(
      WorkflowServiceStubsOptions.Builder options) {
    if (isLoopback(environment.getProperty("spring.temporal.connection.target"))) {
      options.setGrpcCompression(GrpcCompression.NONE);
    }
    return options;
  }

  /** Whether a host:port target names this machine (127.x.x.x, localhost or ::1). */
  static boolean isLoopback(String target) {
    if (target == null) {
      return false;
    }
    String host = target.trim().toLowerCase(Locale.ROOT);
    if (host.startsWith("dns:///")) {
      host = host.substring("dns:///".length());
    }
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end > 0 && host.substring(1, end).equals("::1");
    }
    int colon = host.lastIndexOf(':');
    if (colon >= 0) {
      host = host.substring(0, colon);
    }
    return host.equals("localhost") || host.startsWith("127.");
  }
}
