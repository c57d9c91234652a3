package com.crmflow.api.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds the {@code temporal} CLI whose dev server is the embedded Temporal, or builds it.
 *
 * <p>Looked for in this order: the configured path ({@code crm.temporal.cli}, which defaults to the
 * environment variable {@code TEMPORAL_CLI}), then {@code PATH}, then the tool cache ({@code
 * ${XDG_CACHE_HOME:-~/.cache}/crmflow/temporal-cli-v1.5.1/temporal}). When none is found and {@code
 * go} is on {@code PATH}, the CLI is built once into the cache with {@code go install}, its
 * progress printed as it goes; a file lock in the cache makes every other process (a second
 * service, a test JVM) wait for that build instead of starting its own.
 *
 * <p>v1.5.1 is pinned: it carries Temporal server 1.29 and UI 2.42, and it is the newest release
 * whose go.mod has no {@code replace} directive (which {@code go install} refuses).
 */
public final class TemporalCli {

  /** The CLI release built when none is found. */
  public static final String VERSION = "v1.5.1";

  static final String MODULE = "github.com/temporalio/cli/cmd/temporal";

  private static final String BUILD_COMMAND = "go install " + MODULE + "@" + VERSION;

  /** A build takes 2-3 minutes on two cores with a warm module proxy. */
  private static final long BUILD_TIMEOUT_MINUTES = 30;

  /** One build at a time in this JVM (the file lock covers other processes). */
  private static final Object BUILDING = new Object();

  private final String pathVariable;
  private final Path cacheDir;

  /**
   * @param pathVariable the {@code PATH} to look in
   * @param cacheDir the tool cache's directory for this version
   */
  TemporalCli(String pathVariable, Path cacheDir) {
    this.pathVariable = pathVariable;
    this.cacheDir = cacheDir;
  }

  /**
   * The CLI to run, built first if need be.
   *
   * @param configured {@code crm.temporal.cli}, or null/blank when unset
   * @param progress where a build reports what it does (the console: it runs before logging is set
   *     up, and takes minutes)
   * @throws MissingTemporalCli when there is none and it cannot be built
   */
  public static Path locate(String configured, PrintStream progress) {
    return new TemporalCli(System.getenv("PATH"), defaultCacheDir()).find(configured, progress);
  }

  /** As {@link #locate}, with this instance's PATH and cache. */
  Path find(String configured, PrintStream progress) {
    if (configured != null && !configured.isBlank()) {
      Path path = Path.of(configured.trim());
      if (!Files.isExecutable(path)) {
        throw new MissingTemporalCli(
            "crm.temporal.cli (or TEMPORAL_CLI) is " + path + ", which is not an executable file.",
            "Point it at the temporal executable, or unset it to use the one on PATH. "
                + howToGetIt());
      }
      return path;
    }
    return onPath("temporal")
        .or(() -> Optional.of(cached()).filter(Files::isExecutable))
        .orElseGet(() -> buildIntoCache(progress));
  }

  /** Where the built CLI is kept, outside any work tree. */
  Path cached() {
    return cacheDir.resolve("temporal");
  }

  private static Path defaultCacheDir() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("crmflow").resolve("temporal-cli-" + VERSION);
  }

  private Optional<Path> onPath(String name) {
    if (pathVariable == null) {
      return Optional.empty();
    }
    for (String dir : pathVariable.split(java.io.File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * One build at a time across processes: the lock is taken before looking again, so a process that
   * waited finds the other's binary and builds nothing.
   */
  private Path buildIntoCache(PrintStream progress) {
    synchronized (BUILDING) {
      return buildIntoCacheOnce(progress);
    }
  }

  private Path buildIntoCacheOnce(PrintStream progress) {
    Path go =
        onPath("go")
            .orElseThrow(
                () ->
                    new MissingTemporalCli(
                        "The embedded Temporal server is the Temporal CLI's dev server, and no"
                            + " `temporal` CLI was found (crm.temporal.cli / TEMPORAL_CLI, PATH, "
                            + cached()
                            + ") nor could one be built (no `go` on PATH).",
                        howToGetIt()));
    Path dir = cacheDir;
    Path target = dir.resolve("temporal");
    try {
      Files.createDirectories(dir);
      try (FileChannel lockFile =
              FileChannel.open(
                  dir.resolve("build.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = waitForLock(lockFile, progress)) {
        if (Files.isExecutable(target)) {
          return target; // another process built it while this one waited
        }
        build(go, dir, target, progress);
        return target;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not build the Temporal CLI into " + dir, e);
    }
  }

  private static FileLock waitForLock(FileChannel lockFile, PrintStream progress)
      throws IOException {
    FileLock lock = lockFile.tryLock();
    if (lock != null) {
      return lock;
    }
    progress.println(
        "[temporal CLI] another process is building the Temporal CLI; waiting for it ...");
    return lockFile.lock();
  }

  private void build(Path go, Path dir, Path target, PrintStream progress) throws IOException {
    Path staging = Files.createTempDirectory(dir, "build-");
    progress.println(
        "[temporal CLI] none found (crm.temporal.cli / TEMPORAL_CLI, PATH, "
            + target
            + "); building it once with `"
            + BUILD_COMMAND
            + "`. This takes a few minutes.");
    List<String> command =
        new ArrayList<>(List.of(go.toString(), "install", "-v", MODULE + "@" + VERSION));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("GOBIN", staging.toString());
    Process process = builder.start();
    int packages = 0;
    List<String> tail = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith("go: downloading")) {
          progress.println("[temporal CLI] " + line.substring("go: ".length()));
        } else if (!line.startsWith("go: ") && !line.contains(" ")) {
          // `-v` names each package as it is compiled: count them rather than print 1,500 lines
          if (++packages % 100 == 0) {
            progress.println("[temporal CLI] compiled " + packages + " packages ...");
          }
        } else {
          progress.println("[temporal CLI] " + line);
        }
        tail.add(line);
        if (tail.size() > 20) {
          tail.remove(0);
        }
      }
      if (!process.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new MissingTemporalCli(
            "Building the Temporal CLI took over " + BUILD_TIMEOUT_MINUTES + " minutes.",
            howToGetIt());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new MissingTemporalCli(
          "The build of the Temporal CLI was interrupted.", "Start again to build it.");
    }
    Path built = staging.resolve("temporal");
    if (process.exitValue() != 0 || !Files.isExecutable(built)) {
      throw new MissingTemporalCli(
          "`"
              + BUILD_COMMAND
              + "` failed (exit "
              + process.exitValue()
              + "); its last lines:\n  "
              + String.join("\n  ", tail),
          "Check that the Go module proxy is reachable (go env GOPROXY GOSUMDB), or get the CLI"
              + " another way. "
              + howToGetIt());
    }
    // a rename, so no process ever sees half a binary
    Files.move(built, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Files.deleteIfExists(staging);
    progress.println("[temporal CLI] built " + target + " (" + packages + " packages)");
  }

  /** What a person can do when there is no CLI and it cannot be built here. */
  String howToGetIt() {
    return String.join(
        "\n",
        "Get the Temporal CLI one of these ways:",
        "  - macOS or Linux with Homebrew: brew install temporal",
        "  - download a release: https://temporal.download/cli/archive/latest?platform=linux&arch=amd64"
            + " (see https://docs.temporal.io/cli#install), then put it on PATH or set TEMPORAL_CLI",
        "  - with Go 1.24+: " + BUILD_COMMAND + " (then put $(go env GOPATH)/bin on PATH)",
        "Or point the service at a running Temporal server with"
            + " spring.temporal.connection.target=host:7233.");
  }

  /** No CLI, and none could be built: the message says how to get one. */
  public static final class MissingTemporalCli extends EmbeddedPartUnavailable {
    MissingTemporalCli(String description, String action) {
      super(description, action);
    }
  }
}
