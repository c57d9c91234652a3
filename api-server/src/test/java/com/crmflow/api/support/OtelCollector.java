package com.crmflow.api.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenTelemetry Collector as a child process: OTLP/HTTP in on a free loopback port, spans
 * out to a {@link ZipkinServer}. The collector is the one {@code
 * deploy/tracing/otelcol-builder.yaml} describes, built once per machine into {@code
 * ~/.cache/crmflow} by {@code deploy/tracing/otelcol.sh} (the OpenTelemetry Collector Builder from
 * the Go module proxy), its progress printed; it runs with {@code deploy/tracing/otelcol.yaml}.
 */
public final class OtelCollector implements AutoCloseable {

  /** The repository's root: tests run in api-server. */
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private final Process process;
  private final int port;

  private OtelCollector(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Builds the collector if need be, starts it in front of {@code zipkin}, waits until it listens.
   */
  public static OtelCollector start(ZipkinServer zipkin) throws IOException, InterruptedException {
    Path binary = built();
    int port = WorkerProcess.freePort();
    Path log = Files.createTempFile("otelcol", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(
                binary.toString(), "--config=" + ROOT.resolve("deploy/tracing/otelcol.yaml"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("OTLP_HTTP_ENDPOINT", "127.0.0.1:" + port);
    builder.environment().put("ZIPKIN_SPANS_URL", zipkin.spansEndpoint());
    Process process = builder.start();
    OtelCollector collector = new OtelCollector(process, port);
    await()
        .atMost(Patience.START)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptionsInstanceOf(ConnectException.class)
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException(
                    "the OpenTelemetry Collector ended: " + Files.readString(log));
              }
              try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return true;
              }
            });
    return collector;
  }

  /**
   * The collector's path, from {@code deploy/tracing/otelcol.sh}, which builds it the first time on
   * a machine (a few minutes, more on a busy one; 45 at most).
   */
  public static Path built() throws IOException, InterruptedException {
    // the path arrives in a file, so that the wait below bounds a build that stalls
    Path printed = Files.createTempFile("otelcol-path", ".txt");
    Process script =
        new ProcessBuilder("bash", ROOT.resolve("deploy/tracing/otelcol.sh").toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .redirectOutput(printed.toFile())
            .start();
    boolean finished = script.waitFor(45, TimeUnit.MINUTES);
    String out = Files.readString(printed, StandardCharsets.UTF_8).trim();
    Files.delete(printed);
    if (!finished || script.exitValue() != 0 || out.isEmpty()) {
      script.descendants().forEach(ProcessHandle::destroyForcibly);
      script.destroyForcibly();
      throw new IllegalStateException(
          "no OpenTelemetry Collector: deploy/tracing/otelcol.sh builds one with Go 1.25+ from the"
              + " Go module proxy (its messages are above); run it by hand to see why it failed");
    }
    return Path.of(out);
  }

  /** Where the service sends spans (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). */
  public String tracesEndpoint() {
    return "http://127.0.0.1:" + port + "/v1/traces";
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
