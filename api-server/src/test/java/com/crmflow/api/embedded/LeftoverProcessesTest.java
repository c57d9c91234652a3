package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leftover-PostgreSQL check against a {@code postmaster.pid} left behind, whose pid now belongs
 * to a real process that is not that server: it is never chosen to be signalled, and stays alive.
 * The process is {@code sleep}, once under its own name and once copied to a file named {@code
 * postgres}, as a reused pid of a PostgreSQL of another directory would be.
 */
class LeftoverProcessesTest {

  @TempDir Path dir;

  private Path pgData;
  private final List<Process> started = new ArrayList<>();

  @BeforeEach
  void dataDirectory() throws IOException {
    pgData = Files.createDirectories(dir.resolve("data/postgres"));
  }

  @AfterEach
  void stopStarted() {
    started.forEach(Process::destroyForcibly);
  }

  private Process start(Path command, Path workingDirectory) throws IOException {
    Process process =
        new ProcessBuilder(command.toString(), "60")
            .directory(workingDirectory.toFile())
            .redirectErrorStream(true)
            .start();
    started.add(process);
    return process;
  }

  /** {@code sleep}, copied to a file named {@code postgres}. */
  private Path fakePostgres() throws IOException {
    Path sleep = Path.of("/bin/sleep");
    if (!Files.exists(sleep)) {
      sleep = Path.of("/usr/bin/sleep");
    }
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path postgres = bin.resolve("postgres");
    Files.copy(sleep, postgres, StandardCopyOption.REPLACE_EXISTING);
    postgres.toFile().setExecutable(true);
    return postgres;
  }

  private static Instant startOf(Process process) {
    return process.toHandle().info().startInstant().orElseThrow();
  }

  /** postmaster.pid as PostgreSQL writes it: pid, data directory, start time, port, ... */
  private void pidFile(long pid, Path dataDir, Instant start) throws IOException {
    Files.writeString(
        pgData.resolve("postmaster.pid"),
        String.join(
                "\n",
                Long.toString(pid),
                dataDir.toString(),
                Long.toString(start.getEpochSecond()),
                "5432",
                "/tmp",
                "127.0.0.1",
                "  5432001    32768",
                "ready   ")
            + "\n");
  }

  private static void assertNotChosenAndAlive(Optional<ProcessHandle> chosen, Process process)
      throws InterruptedException {
    assertThat(chosen).isEmpty();
    await().during(Duration.ofMillis(200)).atMost(Patience.EVENTUALLY).until(process::isAlive);
  }

  @Test
  void anUnrelatedProcessOnTheFilesPidIsLeftAlone() throws Exception {
    Process sleep = start(Path.of("sleep"), dir);
    pidFile(sleep.pid(), pgData, startOf(sleep));

    assertNotChosenAndAlive(LeftoverProcesses.postgresOf(pgData), sleep);
  }

  @Test
  void aPostgresOfAnotherDirectoryOnTheFilesPidIsLeftAlone() throws Exception {
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Process other = start(fakePostgres(), elsewhere);
    pidFile(other.pid(), pgData, startOf(other));

    assertNotChosenAndAlive(LeftoverProcesses.postgresOf(pgData), other);
  }

  @Test
  void aPostgresStartedAfterTheFileWasWrittenIsLeftAlone() throws Exception {
    Process later = start(fakePostgres(), pgData);
    pidFile(later.pid(), pgData, startOf(later).minus(Duration.ofHours(1)));

    assertNotChosenAndAlive(LeftoverProcesses.postgresOf(pgData), later);
  }

  @Test
  void aFileCopiedFromAnotherDataDirectoryIsNotTrusted() throws Exception {
    Process copied = start(fakePostgres(), pgData);
    Path original = Files.createDirectories(dir.resolve("original/postgres"));
    pidFile(copied.pid(), original, startOf(copied));

    assertNotChosenAndAlive(LeftoverProcesses.postgresOf(pgData), copied);
  }

  @Test
  void theServerTheFileDescribesIsFoundAndStopped() throws Exception {
    Process leftover = start(fakePostgres(), pgData);
    pidFile(leftover.pid(), pgData, startOf(leftover));

    Optional<ProcessHandle> found = LeftoverProcesses.postgresOf(pgData);
    assertThat(found.map(ProcessHandle::pid)).contains(leftover.pid());
    LeftoverProcesses.stop(found.orElseThrow());
    assertThat(leftover.isAlive()).isFalse();
  }
}
