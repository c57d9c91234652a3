package com.crmflow.api.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunResume;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run restarted from its node log ({@link RunInputs#whereItStood}): finished nodes pass with
 * their outcome, and a node that waits goes on with its entry, its deadline and when it began, so
 * that a move after the restart measures a recomputed delay from that start.
 */
class RunInputsTest {

  @Test
  void aWaitingNodeGoesOnWithItsEntryDeadlineAndStart() {
    RunResume resume =
        RunInputs.whereItStood(
            List.of(
                new NodeLogEntry(
                    1,
                    "hook",
                    "webhook_trigger",
                    "completed",
                    "2026-12-01T09:00:00Z",
                    "2026-12-01T09:00:00Z",
                    Map.of("id", 7),
                    null),
                new NodeLogEntry(
                    2,
                    "wait",
                    "delay",
                    "running",
                    "2026-12-01T09:00:01Z",
                    null,
                    Map.of("until", "2026-12-04T09:00:01Z"),
                    null)));

    assertThat(resume.done()).containsOnlyKeys("hook");
    assertThat(resume.done().get("hook").status()).isEqualTo("completed");
    assertThat(resume.waiting())
        .containsEntry(
            "wait", new RunResume.WaitingDelay(2, "2026-12-04T09:00:01Z", "2026-12-01T09:00:01Z"));
    assertThat(resume.lastSeq()).isEqualTo(2);
  }
}
