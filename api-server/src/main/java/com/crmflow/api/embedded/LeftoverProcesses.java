package com.crmflow.api.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
   * The PostgreSQL server still running on this data directory, by the pid in its {@code
   * postmaster.pid} (whose first line it is), if that process is a postgres.
   */
  static Optional<ProcessHandle> postgresOf(Path pgData) {
    Path pidFile = pgData.resolve("postmaster.pid");
    if (!Files.isRegularFile(pidFile)) {
      return Optional.empty();
    }
    try {
      List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
      if (lines.isEmpty()) {
        return Optional.empty();
      }
      long pid = Long.parseLong(lines.get(0).trim());
      return ProcessHandle.of(pid)
          .filter(ProcessHandle::isAlive)
          .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false));
    } catch (IOException | NumberFormatException unreadable) {
      return Optional.empty(); // a half-written file: PostgreSQL itself will judge it
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
