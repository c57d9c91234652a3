package com.crmflow.api.embedded;

import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Temporal server, the Temporal CLI's dev server ({@code temporal server start-dev}), run as
 * a child process with its state in one SQLite file: every workflow, timer and history survives a
 * restart of the service, of the dev server, or of the machine.
 *
 * <p>Its directory holds {@code temporal.db} (the state) and {@code temporal.log} (its output). A
 * dev server left running on that file by a service that was killed ({@code kill -9} ends the JVM
 * but not its children) is found by its command line and stopped before a new one starts, so two
 * never share a file. If the dev server dies while the service runs, it is started again on the
 * same file and ports.
 */
public final class TemporalDevServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TemporalDevServer.class);

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration RESTART_PAUSE = Duration.ofSeconds(2);

  /**
   * How the dev server is started.
   *
   * @param cli the {@code temporal} executable
   * @param dir where its SQLite file and log are kept
   * @param port the frontend's gRPC port on 127.0.0.1
   * @param uiPort the Temporal UI's port; 0 runs it headless
   * @param namespace a namespace to create besides {@code default} (or {@code default})
   * @param searchAttributes custom search attributes to register, name to type ({@code Keyword})
   */
  public record Settings(
      Path cli,
      Path dir,
      int port,
      int uiPort,
      String namespace,
      Map<String, String> searchAttributes,
      int timerTaskWorkers) {

    /** Settings with {@link #DEFAULT_TIMER_TASK_WORKERS}. */
    public Settings(
        Path cli,
        Path dir,
        int port,
        int uiPort,
        String namespace,
        Map<String, String> searchAttributes) {
      this(cli, dir, port, uiPort, namespace, searchAttributes, DEFAULT_TIMER_TASK_WORKERS);
    }

    public Path database() {
      return databaseIn(dir);
    }

    /** The SQLite file a dev server keeps in {@code dir}. */
    public static Path databaseIn(Path dir) {
      return dir.resolve("temporal.db").toAbsolutePath().normalize();
    }

    public Path logFile() {
      return dir.resolve("temporal.log").toAbsolutePath().normalize();
    }
  }

  /**
   * Goroutines that run the history service's timer tasks unless told otherwise ({@code
   * crm.embedded.temporal-timer-task-workers}; Temporal's default: 512).
   */
  public static final int DEFAULT_TIMER_TASK_WORKERS = 8;

  /** Beside the database: it was made with task queue fairness on, which must stay on. */
  static final String FAIRNESS_MARK = "task-queue-fairness";

  private final Settings settings;
  private volatile Process process;
  private volatile boolean closing;

  private TemporalDevServer(Settings settings) {
    this.settings = settings;
  }

  /** Stops any leftover on the same file, starts the dev server and waits until it serves. */
  public static TemporalDevServer start(Settings settings) {
    stopLeftovers(settings.database());
    return launch(settings);
  }

  /**
   * Starts the dev server on a file that no leftover holds ({@link #stopLeftovers} ran) and waits
   * until it serves.
   */
  static TemporalDevServer launch(Settings settings) {
    try {
      Files.createDirectories(settings.dir());
    } catch (IOException e) {
      throw new UncheckedIOException("could not create " + settings.dir(), e);
    }
    TemporalDevServer server = new TemporalDevServer(settings);
    server.startProcess();
    return server;
  }

  /** host:port of the frontend, for {@code spring.temporal.connection.target}. */
  public String target() {
    return "127.0.0.1:" + settings.port();
  }

  /** The Temporal UI's address, or null when headless. */
  public String uiUrl() {
    return settings.uiPort() == 0 ? null : "http://127.0.0.1:" + settings.uiPort();
  }

  public Settings settings() {
    return settings;
  }

  /** The running dev server's process id. */
  public long pid() {
    return process.pid();
  }

  private synchronized void startProcess() {
    List<String> command = command(settings);
    Process started;
    try {
      started =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(settings.logFile().toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not run " + settings.cli(), e);
    }
    process = started;
    awaitServing(started);
    started.onExit().thenAccept(this::exited);
  }

  static List<String> command(Settings settings) {
    List<String> command = new ArrayList<>();
    command.add(settings.cli().toString());
    command.addAll(List.of("server", "start-dev", "--ip", "127.0.0.1"));
    command.addAll(List.of("--port", String.valueOf(settings.port())));
    if (settings.uiPort() == 0) {
      command.add("--headless");
    } else {
      command.addAll(List.of("--ui-port", String.valueOf(settings.uiPort())));
    }
    command.addAll(List.of("--db-filename", settings.database().toString()));
    if (!"default".equals(settings.namespace())) {
      command.addAll(List.of("--namespace", settings.namespace()));
    }
    settings
        .searchAttributes()
        .forEach((name, type) -> command.addAll(List.of("--search-attribute", name + "=" + type)));
    // Write-ahead logging: one fsync per commit instead of the rollback journal's several, and
    // readers that do not block the writer. FULL keeps every commit on disk before it returns.
    command.addAll(List.of("--sqlite-pragma", "journal_mode=wal"));
    command.addAll(List.of("--sqlite-pragma", "synchronous=full"));
    // The CLI turns the search-attribute cache off so that attributes added while it runs are seen
    // at once; ours are registered as it starts, and the cache spares every start a read of them.
    command.addAll(
        List.of("--dynamic-config-value", "system.forceSearchAttributesCacheRefreshOnRead=false"));
    // Timer tasks run on a few goroutines instead of 512. All of the server's reads and writes
    // share one SQLite connection: when thousands of timers fall due at once (a send window
    // opening on a large list), with 512 a new run's start waits for it among hundreds of timer
    // tasks, for seconds. With a few, starts keep their turn, and the timers fire at the pace of
    // so few: a large burst delays its own runs (docs/benchmarks.md, "Waiting runs").
    command.addAll(
        List.of(
            "--dynamic-config-value",
            "history.timerProcessorSchedulerWorkerCount=" + settings.timerTaskWorkers()));
    if (fairness(settings)) {
      // the tasks of each tenant (its fairness key, set on every start) are dispatched in turn,
      // so one tenant's backlog does not delay another's (docs/design.md)
      command.addAll(List.of("--dynamic-config-value", "matching.useNewMatcher=true"));
      command.addAll(List.of("--dynamic-config-value", "matching.enableFairness=true"));
    }
    command.addAll(List.of("--log-level", "warn", "--color", "never"));
    return command;
  }

  /**
   * Whether task queue fairness is on for this database: for one made with it (marked by {@link
   * #FAIRNESS_MARK} beside it), or a new one. A database made without it keeps it off: its server
   * (1.29) keeps fair and classic task backlogs in separate tables and cannot move one to the
   * other, so tasks queued before the switch would never be dispatched.
   */
  static boolean fairness(Settings settings) {
    Path mark = settings.dir().resolve(FAIRNESS_MARK);
    if (Files.exists(mark)) {
      return true;
    }
    if (Files.exists(settings.database())) {
      log.info(
          "Task queue fairness stays off for {}: it was made without it (a new data directory"
              + " has it)",
          settings.database());
      return false;
    }
    try {
      Files.writeString(
          mark, "this Temporal database runs with task queue fairness (matching.enableFairness)\n");
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + mark, e);
    }
  }

  private void awaitServing(Process started) {
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(target()).build());
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    try {
      while (true) {
        if (!started.isAlive()) {
          throw new EmbeddedPartUnavailable(
              "The Temporal dev server exited with code "
                  + started.exitValue()
                  + " as it started; "
                  + logTail(),
              "If a port is taken, free it or choose others with crm.embedded.temporal-port and"
                  + " crm.embedded.temporal-ui-port (0: any free port).");
        }
        try {
          if ("SERVING".equals(stubs.healthCheck().getStatus().name())) {
            stubs
                .blockingStub()
                .describeNamespace(
                    DescribeNamespaceRequest.newBuilder()
                        .setNamespace(settings.namespace())
                        .build());
            return;
          }
        } catch (RuntimeException notYet) {
          // not listening yet, or the namespace not there yet
        }
        if (System.nanoTime() > deadline) {
          // gone before the caller tries again on the same file
          started
              .destroyForcibly()
              .waitFor(LeftoverProcesses.STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
          throw new EmbeddedPartUnavailable(
              "The Temporal dev server did not serve on "
                  + target()
                  + " within "
                  + READY_TIMEOUT.toSeconds()
                  + " s; "
                  + logTail(),
              "Look at its log for the cause; start the service again once it is fixed.");
        }
        TimeUnit.MILLISECONDS.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      started.destroyForcibly();
      throw new IllegalStateException("interrupted while the Temporal dev server started", e);
    } finally {
      stubs.shutdownNow();
    }
  }

  /**
   * A dev server that exits while the service runs is started again on the same file. Every
   * decision is taken under the lock that {@link #startAgain}, {@link #kill} and {@link #close}
   * take too, so an exit that a test or a stop caused never starts a second server beside the one
   * they started or stopped.
   */
  private void exited(Process gone) {
    synchronized (this) {
      if (closing || gone != process) {
        return;
      }
    }
    log.error(
        "The embedded Temporal dev server (pid {}) exited with code {}; starting it again. {}",
        gone.pid(),
        gone.exitValue(),
        logTail());
    Process last = gone;
    while (true) {
      try {
        TimeUnit.MILLISECONDS.sleep(RESTART_PAUSE.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      synchronized (this) {
        if (closing || process != last) {
          return; // stopped meanwhile, or started by someone else
        }
        try {
          startProcess();
          log.info("The embedded Temporal dev server is back on {}", target());
          return;
        } catch (RuntimeException e) {
          last = process; // the one that failed to start
          log.error("Could not start the embedded Temporal dev server again: {}", e.getMessage());
        }
      }
    }
  }

  /** Ends the dev server the hard way, as a crash or {@code kill -9} would (for tests). */
  public void kill() throws InterruptedException {
    Process running;
    synchronized (this) {
      closing = true;
      running = process;
    }
    running.destroyForcibly().waitFor();
  }

  /** Starts it again on its file and ports after {@link #kill} or {@link #close}. */
  public synchronized void startAgain() {
    closing = false;
    startProcess();
  }

  /** Stops the dev server: SIGTERM, then SIGKILL if it has not exited in 15 s. */
  @Override
  public void close() throws InterruptedException {
    Process running;
    synchronized (this) {
      closing = true;
      running = process;
    }
    if (running != null && running.isAlive()) {
      LeftoverProcesses.stop(running.toHandle());
    }
  }

  /**
   * The last lines of the dev server's log, for a message, after its panic line when that is
   * further up (a panic's stack fills the last lines).
   */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(settings.logFile(), StandardCharsets.UTF_8);
      int from = Math.max(0, lines.size() - 15);
      List<String> tail = lines.subList(from, lines.size());
      String panic =
          lines.subList(0, from).stream()
              .filter(line -> line.startsWith("panic:"))
              .findFirst()
              .map(line -> "\n  " + line + "\n  ...")
              .orElse("");
      return "its log "
          + settings.logFile()
          + " ends:"
          + panic
          + "\n  "
          + String.join("\n  ", tail);
    } catch (IOException e) {
      return "its log " + settings.logFile() + " could not be read: " + e;
    }
  }

  /**
   * Stops the dev servers on this database file that no live service owns (the caller holds the
   * data directory's lock): the leftovers of a service that was killed, found by their command
   * line, which names the file. Returns their process ids.
   */
  static List<Long> stopLeftovers(Path database) {
    String file = database.toString();
    List<ProcessHandle> leftovers =
        ProcessHandle.allProcesses()
            .filter(p -> p.pid() != ProcessHandle.current().pid())
            .filter(
                p -> {
                  List<String> args = List.of(p.info().arguments().orElse(new String[0]));
                  int at = args.indexOf("--db-filename");
                  return args.contains("start-dev")
                      && at >= 0
                      && at + 1 < args.size()
                      && file.equals(args.get(at + 1));
                })
            .toList();
    List<Long> stopped = new ArrayList<>();
    for (ProcessHandle leftover : leftovers) {
      log.warn(
          "Stopping a Temporal dev server (pid {}) left running on {} by a service that ended"
              + " without stopping it",
          leftover.pid(),
          file);
      LeftoverProcesses.stop(leftover);
      stopped.add(leftover.pid());
    }
    return stopped;
  }
}
