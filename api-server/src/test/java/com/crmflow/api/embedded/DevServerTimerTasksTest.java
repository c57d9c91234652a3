package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dev server runs its timer tasks on a few goroutines, so that a start keeps its turn at the
 * one SQLite connection while thousands of timers fire (the effect is measured by
 * bench/waiting-bench.sh, docs/benchmarks.md "Waiting runs").
 */
class DevServerTimerTasksTest {

  private static final String SETTING = "history.timerProcessorSchedulerWorkerCount=";

  @TempDir Path dir;

  @Test
  void theDevServerRunsItsTimerTasksOnEightGoroutinesUnlessToldOtherwise() {
    assertThat(dynamicConfigValues(settings(TemporalDevServer.DEFAULT_TIMER_TASK_WORKERS)))
        .contains(SETTING + 8);
    assertThat(
            dynamicConfigValues(
                new TemporalDevServer.Settings(
                    Path.of("temporal"), dir, 7233, 0, "default", Map.of())))
        .contains(SETTING + 8);
    assertThat(dynamicConfigValues(settings(512)))
        .contains(SETTING + 512)
        .doesNotContain(SETTING + 8);
  }

  private TemporalDevServer.Settings settings(int timerTaskWorkers) {
    return new TemporalDevServer.Settings(
        Path.of("temporal"), dir, 7233, 0, "default", Map.of(), timerTaskWorkers);
  }

  /** The values that follow a {@code --dynamic-config-value} in the dev server's command. */
  private static List<String> dynamicConfigValues(TemporalDevServer.Settings settings) {
    List<String> command = TemporalDevServer.command(settings);
    return IntStream.range(1, command.size())
        .filter(i -> command.get(i - 1).equals("--dynamic-config-value"))
        .mapToObj(command::get)
        .toList();
  }
}
