package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dev server runs its timer tasks on a few goroutines, so that a start keeps its turn at the
 * one SQLite connection while thousands of timers fire (the effect is measured by
 * bench/waiting-bench.sh, docs/benchmarks.md "Waiting runs").
 */
class DevServerTimerTasksTest {

  @TempDir Path dir;

  @Test
  void theDevServerRunsItsTimerTasksOnEightGoroutines() {
    List<String> command =
        TemporalDevServer.command(
            new TemporalDevServer.Settings(Path.of("temporal"), dir, 7233, 0, "default", Map.of()));

    int at = command.indexOf("history.timerProcessorSchedulerWorkerCount=8");
    assertThat(at).as(String.join(" ", command)).isPositive();
    assertThat(command.get(at - 1)).isEqualTo("--dynamic-config-value");
  }
}
