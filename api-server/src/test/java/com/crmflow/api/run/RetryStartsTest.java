package com.crmflow.api.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a retry starts, read from the failed run's log (no database: the rule alone). */
class RetryStartsTest {

  /**
   * hook → tolerant (continues on failure) → a → b, hook → wait → c, hook → bad: the run failed at
   * bad.
   */
  private static final Canvas CANVAS =
      new Canvas(
          List.of(
              node("hook", "webhook_trigger", Map.of()),
              node("tolerant", "http_request", Map.of("continueOnFailure", true)),
              node("a", "http_request", Map.of()),
              node("b", "http_request", Map.of()),
              node("wait", "delay", Map.of("delayDays", 1)),
              node("c", "http_request", Map.of()),
              node("bad", "http_request", Map.of())),
          List.of(
              edge("hook", "tolerant"),
              edge("tolerant", "a"),
              edge("a", "b"),
              edge("hook", "wait"),
              edge("wait", "c"),
              edge("hook", "bad")));

  private static final String ERROR = "node bad (http_request) failed: HTTP 404";

  @Test
  void theNodeNamedInTheErrorComesFirstThenTheOthersTheFailureLeftUnrunInLogOrder() {
    List<NodeLogEntry> log =
        List.of(
            entry(1, "hook", RunResult.COMPLETED, null),
            entry(2, "tolerant", RunResult.FAILED, null),
            entry(3, "wait", RunResult.SKIPPED, RunResult.CUT_BY_FAILURE),
            entry(4, "a", RunResult.FAILED, null),
            entry(5, "bad", RunResult.FAILED, null));

    assertThat(RetryStarts.of(CANVAS, log, ERROR)).containsExactly("bad", "wait", "a");
  }

  @Test
  void aNodeThatFollowsAnotherStartRunsAfterItNotBesideIt() {
    List<NodeLogEntry> log =
        List.of(
            entry(1, "hook", RunResult.COMPLETED, null),
            entry(2, "tolerant", RunResult.COMPLETED, null),
            entry(3, "a", RunResult.SKIPPED, RunResult.NOT_STARTED_FOR_FAILURE),
            entry(4, "bad", RunResult.FAILED, null),
            // not something the interpreter writes: b cannot have a turn before a ran
            entry(5, "b", RunResult.SKIPPED, RunResult.NOT_STARTED_FOR_FAILURE));

    assertThat(RetryStarts.of(CANVAS, log, ERROR)).containsExactly("bad", "a");
  }

  @Test
  void aNodeThatChoseToSkipOrCompletedIsNotRunAgain() {
    List<NodeLogEntry> log =
        List.of(
            entry(1, "hook", RunResult.COMPLETED, null),
            entry(2, "a", RunResult.SKIPPED, "contact has do_not_email"),
            entry(3, "c", RunResult.COMPLETED, null),
            entry(4, "bad", RunResult.FAILED, null));

    assertThat(RetryStarts.of(CANVAS, log, ERROR)).containsExactly("bad");
    // a run stopped in Temporal names no node in its error: its failed nodes in log order
    assertThat(RetryStarts.failedAtANode(List.of("bad"), ERROR)).isTrue();
    assertThat(RetryStarts.of(CANVAS, log, "The workflow was terminated in Temporal: x"))
        .containsExactly("bad");
    assertThat(RetryStarts.failedAtANode(List.of("bad"), "The workflow was terminated: x"))
        .isFalse();
  }

  private static NodeLogEntry entry(int seq, String nodeId, String status, String skipped) {
    String type = CANVAS.node(nodeId).orElseThrow().type();
    return new NodeLogEntry(
        seq,
        nodeId,
        type,
        status,
        "2026-11-24T10:00:00.000Z",
        "2026-11-24T10:00:01.000Z",
        skipped == null ? Map.of() : Map.of("skipped", skipped),
        RunResult.FAILED.equals(status) ? "HTTP 404" : null);
  }

  private static CanvasNode node(String id, String type, Map<String, Object> config) {
    return new CanvasNode(id, type, new Position(0, 0), new NodeData(id, config));
  }

  private static CanvasEdge edge(String source, String target) {
    return new CanvasEdge(source + ">" + target, source, target, "default", null);
  }
}
