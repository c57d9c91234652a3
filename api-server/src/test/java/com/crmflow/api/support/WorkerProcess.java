package com.crmflow.api.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A workflow-worker started as its own process from its jar (built by the reactor before
 * api-server's tests), against a Temporal server: the distributed shape.
 */
public final class WorkerProcess implements AutoCloseable {

  /** The runnable jar as the build extracts it (its lib/ beside it), as the cluster runs it. */
  private static final String JAR_DIR = "../workflow-worker/target/app";

  /** The packaged jar, whose launcher takes {@code loader.path}. */
  private static final String PACKAGED_JAR_DIR = "../workflow-worker/target";

  private static final String JAR_NAME = ".*-exec\\.jar";
  private static final String MISSING = "build workflow-worker first";
  private static final String HEAP = "256m";

  private final Process process;
  private final Path log;

  private WorkerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * @param settings further {@code --name=value} arguments (an SMTP server, say)
   */
  public static WorkerProcess start(String temporalTarget, String... settings) throws IOException {
    Path log = Files.createTempFile("worker", ".log");
    Process process =
        JarProcesses.start(
            JAR_DIR, JAR_NAME, MISSING, HEAP, log, arguments(temporalTarget, settings));
    return new WorkerProcess(process, log);
  }

  /**
   * As {@link #start}, with jars (or directories) of one's own on the worker's classpath, as {@code
   * -Dloader.path} adds them to the packaged jar: node types, say.
   */
  public static WorkerProcess startWithLoaderPath(
      List<Path> loaderPath, String temporalTarget, String... settings) throws IOException {
    Path log = Files.createTempFile("worker", ".log");
    Process process =
        JarProcesses.startWithLoaderPath(
            PACKAGED_JAR_DIR,
            JAR_NAME,
            MISSING,
            HEAP,
            log,
            "com.crmflow.worker.WorkflowWorkerApplication",
            loaderPath,
            arguments(temporalTarget, settings));
    return new WorkerProcess(process, log);
  }

  private static List<String> arguments(String temporalTarget, String... settings) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--spring.temporal.connection.target=" + temporalTarget,
                "--crm.http.allow-private-addresses=true"));
    arguments.addAll(List.of(settings));
    return arguments;
  }

  /** Waits until the worker's context has started (its workers poll). */
  public void awaitReady() {
    await()
        .atMost(Patience.START)
        .until(() -> Files.readString(log).contains("Started WorkflowWorkerApplication"));
  }

  /** Waits for the worker to end by itself (a start that fails); its log. */
  public String awaitExit() throws IOException, InterruptedException {
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError("the worker kept running: " + Files.readString(log));
    }
    return Files.readString(log);
  }

  /** {@code kill -9}: the worker ends mid-task, with no graceful stop. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy(); // SIGTERM: Spring closes the context, workers shut down
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
