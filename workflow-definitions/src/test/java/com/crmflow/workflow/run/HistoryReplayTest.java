package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Replays recorded histories against today's interpreter: a change that would break runs in flight
 * (non-determinism) fails here. Histories come from {@link HistoryRecorder} and cover every node
 * type the engine runs, timers, parallel branches with a join, a skipped branch and activity
 * retries.
 */
class HistoryReplayTest {

  @Test
  void everyRecordedHistoryReplays() throws IOException, URISyntaxException, Exception {
    Path dir = Path.of(HistoryReplayTest.class.getResource("/histories").toURI());
    List<Path> histories;
    try (Stream<Path> files = Files.list(dir)) {
      histories = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(histories)
        .extracting(p -> p.getFileName().toString())
        .contains(
            "every-built-node-type.json",
            "three-day-wait.json",
            "retried-activity.json",
            "batched-every-built-node-type.json",
            "batched-three-day-wait.json",
            "batched-retried-activity.json");
    assertThat(Files.readString(dir.resolve("batched-three-day-wait.json")))
        .contains("record_nodes", "record_run_end");
    for (Path history : histories) {
      WorkflowReplayer.replayWorkflowExecution(
          Files.readString(history), AutomationRunWorkflowImpl.class);
    }
  }
}
