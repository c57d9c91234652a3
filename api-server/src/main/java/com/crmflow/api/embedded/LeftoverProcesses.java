package com.crmflow.api.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Child processes of a service that ended without stopping them ({@code kill -9} ends the JVM, not
 * its children): found from their own files, and stopped. Only called while holding the {@link
 * DataDirLock}, which proves that no live service owns them.
 */
final class LeftoverProcesses {

  static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

  private LeftoverProcesses() {}

  /**
   * How far a process's start may lie from the start time its {@code postmaster.pid} holds: the
   * file has whole seconds, written just after the process began.
   */
  static final Duration START_TOLERANCE = Duration.ofSeconds(3);

  /**
   * The PostgreSQL server still running on this data directory, by its {@code postmaster.pid}: the
   * pid on its first line, if that process is a postgres, works on this directory (the file's
   * second line, and the process's {@code -D} argument or working directory) and started when the
   * file's third line says. A pid reused by any other process, after a crash left the file behind,
   * matches none of this and is never signalled.
   */
  static Optional<ProcessHandle> postgresOf(Path pgData) {
    Path pidFile = pgData.resolve("postmaster.pid");
    if (!Files.isRegularFile(pidFile)) {
      return Optional.empty();
    }
    try {
      List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
      if (lines.size() < 3) {
        return Optional.empty();
      }
      long pid = Long.parseLong(lines.get(0).trim());
      Path dataDir = pgData.toRealPath();
      if (!samePath(Path.of(lines.get(1).trim()), dataDir)) {
        return Optional.empty(); // the file was copied or moved here: its server is elsewhere
      }
      Instant started = Instant.ofEpochSecond(Long.parseLong(lines.get(2).trim()));
      return ProcessHandle.of(pid)
          .filter(ProcessHandle::isAlive)
          .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
          .filter(p -> startedAt(p, started))
          .filter(p -> worksOn(p, dataDir));
    } catch (IOException | RuntimeException unreadable) {
      return Optional.empty(); // a half-written file: PostgreSQL itself will judge it
    }
  }

  private static boolean startedAt(ProcessHandle process, Instant fileSays) {
    return process
        .info()
        .startInstant()
        .map(s -> Duration.between(fileSays, s).abs().compareTo(START_TOLERANCE) <= 0)
        .orElse(false);
  }

  /** Its {@code -D} argument, else (where /proc tells) its working directory, is the directory. */
  private static boolean worksOn(ProcessHandle process, Path dataDir) {
    List<String> args = process.info().arguments().map(List::of).orElse(List.of());
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals("-D") && i + 1 < args.size()) {
        return samePath(Path.of(args.get(i + 1)), dataDir);
      }
      if (args.get(i).startsWith("-D") && args.get(i).length() > 2) {
        return samePath(Path.of(args.get(i).substring(2)), dataDir);
      }
    }
    // PostgreSQL changes into its data directory as it starts
    Path cwd = Path.of("/proc", Long.toString(process.pid()), "cwd");
    return Files.exists(cwd) && samePath(cwd, dataDir);
  }

  private static boolean samePath(Path candidate, Path realDataDir) {
    try {
      return candidate.toRealPath().equals(realDataDir);
    } catch (IOException gone) {
      return false;
    }
  }

  /**
   * SIGTERM, then SIGKILL if it has not exited within {@link #STOP_TIMEOUT}. For PostgreSQL,
   * SIGTERM is its smart shutdown, which waits for sessions to end: those of a killed JVM ended
   * with its sockets.
   */
  static void stop(ProcessHandle handle) {
    handle.destroy();
    if (awaitExit(handle)) {
      return;
    }
    handle.destroyForcibly();
    awaitExit(handle);
  }

  private static boolean awaitExit(ProcessHandle handle) {
    try {
      handle.onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception notYet) {
      return false;
    }
  }
}
