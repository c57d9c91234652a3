package com.crmflow.api.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real tracing backend as a child process: the Zipkin server (span store in memory, query API and
 * UI in one jar) from Maven Central, which the api-server build copies into {@code
 * target/tracing-backend} (maven-dependency-plugin, {@code process-test-resources}). Spans reach it
 * through an {@link OtelCollector}. It listens on 127.0.0.1 only: Zipkin's HTTP server is
 * Armeria's, which takes its address from {@code armeria.ports}, not {@code server.address}.
 */
public final class ZipkinServer implements AutoCloseable {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Process process;
  private final Path log;
  private final int port;
  private final HttpClient http = HttpClient.newHttpClient();

  private ZipkinServer(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /** Starts a Zipkin server on a free loopback port and waits until it answers. */
  public static ZipkinServer start() throws IOException {
    int port = WorkerProcess.freePort();
    Path log = Files.createTempFile("zipkin", ".log");
    Process process =
        JarProcesses.start(
            "target/tracing-backend",
            "zipkin-server-.*-exec\\.jar",
            "no Zipkin server jar in api-server/target/tracing-backend: run `./mvnw -B -pl"
                + " api-server process-test-resources -Dexec.skip=true`, which fetches"
                + " io.zipkin:zipkin-server (classifier exec) from Maven Central",
            "384m",
            log,
            List.of(
                "--armeria.ports[0].ip=127.0.0.1",
                "--armeria.ports[0].port=" + port,
                "--armeria.ports[0].protocols[0]=http"));
    ZipkinServer server = new ZipkinServer(process, log, port);
    await()
        .atMost(Patience.START)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptionsInstanceOf(ConnectException.class)
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException(
                    "the Zipkin server ended: " + Files.readString(log));
              }
              return server.get("/health").statusCode() == 200;
            });
    return server;
  }

  /** Where spans in Zipkin's own format go (the collector's Zipkin exporter sends them). */
  public String spansEndpoint() {
    return baseUrl() + "/api/v2/spans";
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  /** The UI's page of one trace. */
  public String tracePage(String traceId) {
    return baseUrl() + "/zipkin/traces/" + traceId;
  }

  /** The trace's spans as the query API returns them (an empty array before any arrived). */
  public JsonNode trace(String traceId) throws IOException, InterruptedException {
    HttpResponse<String> answer = get("/api/v2/trace/" + traceId);
    return answer.statusCode() == 404 ? JSON.createArrayNode() : JSON.readTree(answer.body());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(baseUrl() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
