package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunControl;
import com.crmflow.workflow.contract.RunResult;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A flow's pause asks its runs to hold or end ({@link RunControl}), on Temporal's test environment:
 * a held run finishes its delay and holds before its next node until released, then calls once; a
 * run asked to end stops waiting and ends cancelled with the reason in its record and node log.
 */
@Timeout(60)
class RunControlTest extends ThreeDayWaitRunTest {

  @Test
  void aHeldRunFinishesItsDelayHoldsBeforeItsNextNodeAndCallsOnceWhenReleased() throws Exception {
    start("held");
    running("held").control(new RunControl(RunControl.HOLD, "flow paused", 2));
    // an ask older than the hold is passed over: the run stays held
    running("held").control(new RunControl(RunControl.RELEASE, null, 1));

    env.sleep(Duration.ofDays(4));

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> entry("held", "call").map(NodeLogEntry::status).orElse(""), "running"::equals);
    assertThat(entry("held", "wait").orElseThrow().status()).isEqualTo("completed");
    NodeLogEntry held = entry("held", "call").orElseThrow();
    assertThat(held.output()).isEqualTo(Map.of("held", "flow paused"));
    assertThat(http.calls).isEmpty();

    running("held").control(new RunControl(RunControl.RELEASE, null, 3));

    assertThat(result("held").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/7");
    NodeLogEntry called = entry("held", "call").orElseThrow();
    assertThat(called.status()).isEqualTo("completed");
    assertThat(called.seq()).isEqualTo(held.seq());
    assertThat(recorder.log("held")).extracting(NodeLogEntry::nodeId).containsOnlyOnce("call");
    replays("held");
  }

  @Test
  void aRunAskedToEndStopsItsDelayAndEndsCancelledWithTheReason() throws Exception {
    start("ended");

    running("ended").control(new RunControl(RunControl.END, "flow paused", 1));

    RunResult result = result("ended");
    assertThat(result).isEqualTo(new RunResult(RunResult.CANCELLED, "flow paused"));
    NodeLogEntry delay = entry("ended", "wait").orElseThrow();
    assertThat(delay.status()).isEqualTo("skipped");
    assertThat(delay.output()).isEqualTo(Map.of("skipped", "flow paused"));
    assertThat(entry("ended", "call")).isEmpty();
    assertThat(http.calls).isEmpty();
    assertThat(recorder.finished).containsEntry("ended", RunResult.CANCELLED);
    replays("ended");
  }

  @Test
  void aHeldRunAskedToEndEndsBeforeTheNodeItHeldAt() throws Exception {
    start("held-then-ended");
    running("held-then-ended").control(new RunControl(RunControl.HOLD, "flow paused", 1));
    env.sleep(Duration.ofDays(4));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> entry("held-then-ended", "call").isPresent());

    running("held-then-ended").control(new RunControl(RunControl.END, "flow archived", 2));

    assertThat(result("held-then-ended"))
        .isEqualTo(new RunResult(RunResult.CANCELLED, "flow archived"));
    NodeLogEntry call = entry("held-then-ended", "call").orElseThrow();
    assertThat(call.status()).isEqualTo("skipped");
    assertThat(call.output()).isEqualTo(Map.of("skipped", "flow archived"));
    assertThat(recorder.log("held-then-ended"))
        .extracting(NodeLogEntry::nodeId)
        .containsOnlyOnce("call");
    assertThat(http.calls).isEmpty();
    replays("held-then-ended");
  }
}
