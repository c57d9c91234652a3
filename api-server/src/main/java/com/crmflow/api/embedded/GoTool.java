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
 * Finds a Temporal program written in Go, or builds it with {@code go install}: the CLI whose dev
 * server is the embedded Temporal, and the server, its schema tool and its UI server that the
 * cluster shape ({@code deploy/cluster/start.sh}) runs.
 *
 * <p>Looked for in this order: the configured path (for the CLI {@code crm.temporal.cli}, which
 * defaults to the environment variable {@code TEMPORAL_CLI}; for the others their environment
 * variable, see {@link Spec#variable}), then {@code PATH}, then the tool cache ({@code
 * ${XDG_CACHE_HOME:-~/.cache}/crmflow/<tool>-<version>/<command>}). When none is found and {@code
 * go} is on {@code PATH}, the tool is built once into the cache with {@code go install}, its
 * progress printed as it goes; a file lock in the cache makes every other process (a second
 * service, a test JVM, a script) wait for that build instead of starting its own.
 *
 * <p>The versions are pinned: {@code go install} refuses a module whose go.mod has a {@code
 * replace} directive, and these have none.
 */
public final class GoTool {

  /**
   * What to build and how it is called.
   *
   * @param label how progress and errors name it ("temporal CLI")
   * @param command its executable's name on {@code PATH} and in the cache
   * @param module the Go module it is in
   * @param packagePath the Go package of its {@code main}
   * @param version the module version built
   * @param variable the environment variable that points at one, checked first
   * @param otherWays how a person gets one without Go, one line each
   */
  public record Spec(
      String label,
      String command,
      String module,
      String packagePath,
      String version,
      String variable,
      List<String> otherWays) {

    /** The {@code go install} argument. */
    public String installTarget() {
      return packagePath + "@" + version;
    }

    /** The name {@code go install} gives the binary: the package's last element. */
    String builtName() {
      return packagePath.substring(packagePath.lastIndexOf('/') + 1);
    }

    /** The cache directory's name: the label's words and the version, "temporal-cli-v1.5.1". */
    String cacheName() {
      return label.toLowerCase(java.util.Locale.ROOT).replace(' ', '-') + "-" + version;
    }
  }

  /**
   * The Temporal CLI, whose dev server is the embedded Temporal. v1.5.1 carries Temporal server
   * 1.29 and UI 2.42, and it is the newest release whose go.mod has no {@code replace} directive.
   */
  public static final Spec TEMPORAL_CLI =
      new Spec(
          "temporal CLI",
          "temporal",
          "github.com/temporalio/cli",
          "github.com/temporalio/cli/cmd/temporal",
          "v1.5.1",
          "TEMPORAL_CLI",
          List.of(
              "macOS or Linux with Homebrew: brew install temporal",
              "download a release: https://temporal.download/cli/archive/latest?platform=linux&arch=amd64"
                  + " (see https://docs.temporal.io/cli#install), then put it on PATH or set"
                  + " TEMPORAL_CLI"));

  /** The Temporal server of the cluster shape: the server the CLI v1.5.1 embeds. */
  public static final Spec TEMPORAL_SERVER =
      new Spec(
          "temporal server",
          "temporal-server",
          "go.temporal.io/server",
          "go.temporal.io/server/cmd/server",
          "v1.29.1",
          "TEMPORAL_SERVER",
          List.of(
              "take temporal-server out of the temporalio/server:1.29.1 image and put it on PATH or"
                  + " set TEMPORAL_SERVER"));

  /** The server's SQL schema tool (setup-schema, update-schema), of the same release. */
  public static final Spec TEMPORAL_SQL_TOOL =
      new Spec(
          "temporal-sql-tool",
          "temporal-sql-tool",
          "go.temporal.io/server",
          "go.temporal.io/server/cmd/tools/sql",
          TEMPORAL_SERVER.version(),
          "TEMPORAL_SQL_TOOL",
          List.of(
              "take temporal-sql-tool out of the temporalio/admin-tools:1.29.1 image and put it on"
                  + " PATH or set TEMPORAL_SQL_TOOL"));

  /** The Temporal UI's server, the release the CLI v1.5.1 embeds. */
  public static final Spec TEMPORAL_UI_SERVER =
      new Spec(
          "temporal UI server",
          "temporal-ui-server",
          "github.com/temporalio/ui-server/v2",
          "github.com/temporalio/ui-server/v2/cmd/server",
          "v2.42.1",
          "TEMPORAL_UI_SERVER",
          List.of("run the temporalio/ui:2.42.1 image with TEMPORAL_ADDRESS set to the frontend"));

  /** A build takes 2-15 minutes on two cores with a warm module proxy. */
  private static final long BUILD_TIMEOUT_MINUTES = 40;

  /** One build at a time in this JVM (the file lock covers other processes). */
  private static final Object BUILDING = new Object();

  private final Spec spec;
  private final String pathVariable;
  private final Path cacheDir;

  /**
   * @param spec the tool
   * @param pathVariable the {@code PATH} to look in
   * @param cacheDir the tool cache's directory for this tool and version
   */
  GoTool(Spec spec, String pathVariable, Path cacheDir) {
    this.spec = spec;
    this.pathVariable = pathVariable;
    this.cacheDir = cacheDir;
  }

  /**
   * The tool to run, built first if need be.
   *
   * @param configured where it was configured to be, or null/blank when unset
   * @param progress where a build reports what it does (the console: it runs before logging is set
   *     up, and takes minutes)
   * @throws MissingGoTool when there is none and it cannot be built
   */
  public static Path locate(Spec spec, String configured, PrintStream progress) {
    return new GoTool(spec, System.getenv("PATH"), cacheRoot().resolve(spec.cacheName()))
        .find(configured, progress);
  }

  /** {@code ${XDG_CACHE_HOME:-~/.cache}/crmflow}: tools built or unpacked once per machine. */
  static Path cacheRoot() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("crmflow");
  }

  /** As {@link #locate}, with this instance's PATH and cache. */
  Path find(String configured, PrintStream progress) {
    if (configured != null && !configured.isBlank()) {
      Path path = Path.of(configured.trim());
      if (!Files.isExecutable(path)) {
        throw new MissingGoTool(
            "The "
                + spec.label()
                + " is configured as "
                + path
                + " ("
                + spec.variable()
                + "), which is not an executable file.",
            "Point it at the "
                + spec.command()
                + " executable, or unset it to use the one on PATH. "
                + howToGetIt());
      }
      return path;
    }
    return onPath(spec.command())
        .or(() -> Optional.of(cached()).filter(Files::isExecutable))
        .orElseGet(() -> buildIntoCache(progress));
  }

  /** Where the built tool is kept, outside any work tree. */
  Path cached() {
    return cacheDir.resolve(spec.command());
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
                    new MissingGoTool(
                        "No "
                            + spec.label()
                            + " was found ("
                            + spec.variable()
                            + ", "
                            + spec.command()
                            + " on PATH, "
                            + cached()
                            + ") nor could one be built (no `go` on PATH).",
                        howToGetIt()));
    Path target = cached();
    try {
      Files.createDirectories(cacheDir);
      try (FileChannel lockFile =
              FileChannel.open(
                  cacheDir.resolve("build.lock"),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE);
          FileLock lock = waitForLock(lockFile, progress)) {
        if (Files.isExecutable(target)) {
          return target; // another process built it while this one waited
        }
        build(go, target, progress);
        return target;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "could not build the " + spec.label() + " into " + cacheDir, e);
    }
  }

  private FileLock waitForLock(FileChannel lockFile, PrintStream progress) throws IOException {
    FileLock lock = lockFile.tryLock();
    if (lock != null) {
      return lock;
    }
    progress.println(
        prefix() + "another process is building the " + spec.label() + "; waiting ...");
    return lockFile.lock();
  }

  private String prefix() {
    return "[" + spec.label() + "] ";
  }

  private String buildCommand() {
    return "go install " + spec.installTarget();
  }

  private void build(Path go, Path target, PrintStream progress) throws IOException {
    Path staging = Files.createTempDirectory(cacheDir, "build-");
    progress.println(
        prefix()
            + "none found ("
            + spec.variable()
            + ", PATH, "
            + target
            + "); building it once with `"
            + buildCommand()
            + "`. This takes a few minutes.");
    List<String> command =
        new ArrayList<>(List.of(go.toString(), "install", "-v", spec.installTarget()));
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
          progress.println(prefix() + line.substring("go: ".length()));
        } else if (!line.startsWith("go: ") && !line.contains(" ")) {
          // `-v` names each package as it is compiled: count them rather than print 1,500 lines
          if (++packages % 100 == 0) {
            progress.println(prefix() + "compiled " + packages + " packages ...");
          }
        } else {
          progress.println(prefix() + line);
        }
        tail.add(line);
        if (tail.size() > 20) {
          tail.remove(0);
        }
      }
      if (!process.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new MissingGoTool(
            "Building the " + spec.label() + " took over " + BUILD_TIMEOUT_MINUTES + " minutes.",
            howToGetIt());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new MissingGoTool(
          "The build of the " + spec.label() + " was interrupted.", "Start again to build it.");
    }
    Path built = staging.resolve(spec.builtName());
    if (process.exitValue() != 0 || !Files.isExecutable(built)) {
      throw new MissingGoTool(
          "`"
              + buildCommand()
              + "` failed (exit "
              + process.exitValue()
              + "); its last lines:\n  "
              + String.join("\n  ", tail),
          "Check that the Go module proxy is reachable (go env GOPROXY GOSUMDB), or get the "
              + spec.label()
              + " another way. "
              + howToGetIt());
    }
    // a rename, so no process ever sees half a binary
    Files.move(built, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Files.deleteIfExists(staging);
    progress.println(prefix() + "built " + target + " (" + packages + " packages)");
  }

  /** What a person can do when there is no such tool and it cannot be built here. */
  String howToGetIt() {
    List<String> lines = new ArrayList<>();
    lines.add("Get the " + spec.label() + " one of these ways:");
    spec.otherWays().forEach(way -> lines.add("  - " + way));
    lines.add(
        "  - with Go 1.24+: "
            + buildCommand()
            + " (then put $(go env GOPATH)/bin on PATH as "
            + spec.command()
            + ", or set "
            + spec.variable()
            + ")");
    if (spec == TEMPORAL_CLI) {
      lines.add(
          "Or point the service at a running Temporal server with"
              + " spring.temporal.connection.target=host:7233.");
    }
    return String.join("\n", lines);
  }

  /** No such tool, and none could be built: the message says how to get one. */
  public static final class MissingGoTool extends EmbeddedPartUnavailable {
    MissingGoTool(String description, String action) {
      super(description, action);
    }
  }
}
