package com.crmflow.api.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The api-server started as its own process from its extracted jar, as {@code java -jar} runs it in
 * production: for the tests that kill it ({@code kill -9}) and start it again. Used by the
 * integration tests ({@code *IT}), which run after {@code package}.
 */
public final class ApiServerProcess implements AutoCloseable {

  public static final String ADMIN_TOKEN = "process-admin-token";

  private final Process process;
  private final Path log;
  private final int port;

  private ApiServerProcess(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * Starts the api-server on a free port with its data in {@code dataDir}.
   *
   * @param settings further {@code --name=value} arguments
   */
  public static ApiServerProcess start(Path dataDir, String... settings) throws IOException {
    return start(dataDir, Map.of(), settings);
  }

  /**
   * As {@link #start(Path, String...)}, with these environment variables (OTEL_*, say).
   *
   * @param settings further {@code --name=value} arguments
   */
  public static ApiServerProcess start(
      Path dataDir, Map<String, String> environment, String... settings) throws IOException {
    int port = WorkerProcess.freePort();
    Files.createDirectories(dataDir);
    Path log = Files.createTempFile(Path.of("target"), "api-server-", ".log");
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--server.port=" + port,
                "--crm.data-dir=" + dataDir.toAbsolutePath(),
                "--crm.admin-token=" + ADMIN_TOKEN,
                "--crm.http.allow-private-addresses=true"));
    arguments.addAll(List.of(settings));
    Process process =
        JarProcesses.start(
            "target/app",
            "api-server-.*\\.jar",
            "package api-server first",
            "512m",
            log,
            arguments,
            environment);
    return new ApiServerProcess(process, log, port);
  }

  /** Waits until the service answers, failing with its log if it exits first. */
  public ApiServerProcess awaitReady() {
    await()
        .atMost(Patience.START)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException(
                    "the api-server exited with " + process.exitValue() + ":\n" + log());
              }
              return log().contains("Started CrmApiApplication");
            });
    return this;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  /** A new tenant with a key of every scope. */
  public ApiTest.TenantClient newTenant() {
    return WholeService.newTenant(baseUrl(), ADMIN_TOKEN);
  }

  /** A client without a key, for the public trigger. */
  public ApiClient anonymous() {
    return new ApiClient(baseUrl(), null);
  }

  public long pid() {
    return process.pid();
  }

  public String log() throws IOException {
    return Files.readString(log);
  }

  /** {@code kill -9}: no shutdown hook, no graceful stop; its child processes live on. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** Waits for the process to exit on its own (a start that is refused), returning its code. */
  public int awaitExit(Duration atMost) throws InterruptedException {
    if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("the api-server did not exit within " + atMost);
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy(); // SIGTERM: Spring closes the context and stops its child processes
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
