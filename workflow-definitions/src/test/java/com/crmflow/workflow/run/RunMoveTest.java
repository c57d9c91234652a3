package com.crmflow.workflow.run;

import static com.crmflow.workflow.run.Canvases.edge;
import static com.crmflow.workflow.run.Canvases.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunControl;
import com.crmflow.workflow.contract.RunMove;
import com.crmflow.workflow.contract.RunMoveResult;
import com.crmflow.workflow.contract.RunResult;
import io.temporal.client.WorkflowUpdateException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiting run moves to another version of its flow ({@link RunMove}), on Temporal's test
 * environment: it goes on from the node with the same id (or the mapped one) with its delay's
 * deadline, its entries kept and one entry saying it moved; a run held before its next node by its
 * flow's pause moves too and holds on at its node in the target until released; a run not at a safe
 * point, or whose node has no place in the target, refuses saying why.
 */
@Timeout(60)
class RunMoveTest extends ThreeDayWaitRunTest {

  /** Version 2 of {@link Canvases#threeDayWait}: the call goes to the fixed URL. */
  static Canvas fixedUrl(String delayId, int delayDays) {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(delayId, "delay", Map.of("delayDays", delayDays)),
            node(
                "call",
                "http_request",
                Map.of("method", "POST", "url", "https://example.com/fixed/{{trigger.id}}"))),
        List.of(edge("hook", delayId), edge(delayId, "call")));
  }

  static RunMove toVersion2(Canvas canvas, Map<String, String> mapping, boolean recompute) {
    return new RunMove("move-1", 2, canvas, mapping, recompute, "key-1");
  }

  static RunMove toVersion3(Canvas canvas, boolean recompute) {
    return new RunMove("move-2", 3, canvas, Map.of(), recompute, "key-1");
  }

  @Test
  void aWaitingRunMovesAndCallsTheFixedUrlOnceAtItsOriginalDeadline() throws Exception {
    start("moved");
    NodeLogEntry waiting = entry("moved", "wait").orElseThrow();
    String until = (String) waiting.output().get("until");
    env.sleep(Duration.ofDays(1));

    RunMoveResult moved = running("moved").move(toVersion2(fixedUrl("wait", 5), Map.of(), false));

    assertThat(moved.outcome()).isEqualTo(RunMoveResult.MOVED);
    assertThat(moved.fromVersion()).isEqualTo(1);
    assertThat(moved.toVersion()).isEqualTo(2);
    assertThat(moved.nodes())
        .containsExactly(new RunMoveResult.MovedNode("wait", "wait", waiting.seq(), until));
    assertThat(recorder.moves.get("moved")).containsExactly(moved);
    NodeLogEntry move = entry("moved", "move:v2").orElseThrow();
    assertThat(move.nodeType()).isEqualTo("move");
    assertThat(move.output())
        .containsEntry("moved_from_version", 1)
        .containsEntry("moved_to_version", 2)
        .containsEntry("key_id", "key-1")
        .containsEntry("move_id", "move-1");

    // a second ask to the same version changes nothing
    assertThat(running("moved").move(toVersion2(fixedUrl("wait", 5), Map.of(), false)).outcome())
        .isEqualTo(RunMoveResult.ALREADY);

    // version 2's delay is longer (5 days), but the run keeps its deadline: day 3
    env.sleep(Duration.ofDays(2).plusHours(1));
    assertThat(result("moved").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/fixed/7");
    NodeLogEntry delay = entry("moved", "wait").orElseThrow();
    assertThat(delay.seq()).isEqualTo(waiting.seq());
    assertThat(delay.status()).isEqualTo("completed");
    assertThat(Instant.parse(delay.completedAt())).isBefore(Instant.parse(until).plusSeconds(60));
    assertThat(recorder.log("moved"))
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("wait", "move:v2", "call");
    replays("moved");
  }

  @Test
  void recomputedDelaysWakeAtTheirStartPlusTheShorterLength() throws Exception {
    start("recomputed");
    env.sleep(Duration.ofHours(12));
    Instant started = Instant.parse(entry("recomputed", "wait").orElseThrow().startedAt());

    RunMoveResult moved =
        running("recomputed").move(toVersion2(fixedUrl("wait", 1), Map.of(), true));

    assertThat(Instant.parse(moved.nodes().get(0).until()))
        .isEqualTo(started.plus(Duration.ofDays(1)));
    env.sleep(Duration.ofHours(13));
    assertThat(result("recomputed").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls).hasSize(1);
    replays("recomputed");
  }

  @Test
  void aRenamedNodeMovesOnlyWhenMapped() throws Exception {
    start("renamed");
    Canvas renamed = fixedUrl("pause", 3);

    assertThatThrownBy(() -> running("renamed").move(toVersion2(renamed, Map.of(), false)))
        .isInstanceOf(WorkflowUpdateException.class)
        .rootCause()
        .hasMessageContaining("node wait is not in version 2 and is not mapped");
    assertThatThrownBy(
            () -> running("renamed").move(toVersion2(renamed, Map.of("wait", "call"), false)))
        .rootCause()
        .hasMessageContaining("a waiting node goes on only in a node of its type");
    assertThat(recorder.moves).doesNotContainKey("renamed");

    RunMoveResult moved =
        running("renamed").move(toVersion2(renamed, Map.of("wait", "pause"), false));

    assertThat(moved.nodes()).extracting(RunMoveResult.MovedNode::toNode).containsExactly("pause");
    env.sleep(Duration.ofDays(4));
    assertThat(result("renamed").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls).hasSize(1);
    // the delay's entry is the mapped node's now, the same entry
    assertThat(recorder.log("renamed"))
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("pause", "move:v2", "call");
    replays("renamed");
  }

  /**
   * A wait moved twice: the second move's {@code recompute_delays} measures from when the wait
   * began, not from the first move. Two days into a three days' wait, a move to two days wakes it
   * at once.
   */
  @Test
  void aSecondMoveRecomputesADelayFromWhenItsWaitBegan() throws Exception {
    start("twice");
    Instant began = Instant.parse(entry("twice", "wait").orElseThrow().startedAt());
    env.sleep(Duration.ofDays(1));
    running("twice").move(toVersion2(fixedUrl("wait", 5), Map.of(), false));
    env.sleep(Duration.ofDays(1));

    RunMoveResult second = running("twice").move(toVersion3(fixedUrl("wait", 2), true));

    assertThat(Instant.parse(second.nodes().get(0).until()))
        .isEqualTo(began.plus(Duration.ofDays(2)));
    env.sleep(Duration.ofHours(1));
    assertThat(result("twice").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/fixed/7");
    assertThat(Instant.parse(entry("twice", "call").orElseThrow().startedAt()))
        .isBefore(began.plus(Duration.ofDays(2)).plus(Duration.ofHours(1)));
    replays("twice");
  }

  /** webhook → a delay (its id given) of these hours that ends inside 09:00–10:00 in Tokyo. */
  private static Canvas windowed(String delayId, int hours) {
    return SendWindowWaitTest.windowedDelay(delayId, hours, "Asia/Tokyo");
  }

  /**
   * A delay with a send window, moved to a node of another id and then moved again, keeps the
   * deadline it logged when it began: the second move does not compute a window again from its own
   * moment and the target's length.
   */
  @Test
  void aDelayWithAWindowMovedTwiceKeepsItsDeadline() throws Exception {
    start("window", windowed("wait", 1));
    String until = (String) entry("window", "wait").orElseThrow().output().get("until");
    env.sleep(Duration.ofMinutes(10));
    running("window").move(toVersion2(windowed("pause", 2), Map.of("wait", "pause"), false));
    env.sleep(Duration.ofMinutes(10));

    RunMoveResult second = running("window").move(toVersion3(windowed("pause", 30), false));

    assertThat(second.nodes()).extracting(RunMoveResult.MovedNode::until).containsExactly(until);
    env.sleep(
        Duration.between(Instant.ofEpochMilli(env.currentTimeMillis()), Instant.parse(until)));
    env.sleep(Duration.ofMinutes(1));
    assertThat(result("window").status()).isEqualTo(RunResult.COMPLETED);
    NodeLogEntry waited = entry("window", "pause").orElseThrow();
    assertThat(Instant.parse(waited.completedAt()))
        .isBefore(Instant.parse(until).plus(Duration.ofMinutes(1)));
    replays("window");
  }

  /**
   * A run held by its flow's pause while it waits, moved twice: it goes on waiting in the moved
   * delay (no held entry of its own), keeps its deadline through both moves, holds before its call
   * once the delay is over, and calls once when released. No entry is left running.
   */
  @Test
  void aHeldRunMovedWhileItWaitsWaitsOnAndHoldsBeforeItsNextNode() throws Exception {
    start("heldwait");
    NodeLogEntry waiting = entry("heldwait", "wait").orElseThrow();
    String until = (String) waiting.output().get("until");
    running("heldwait").control(new RunControl(RunControl.HOLD, "flow paused", 1));
    env.sleep(Duration.ofHours(12));
    running("heldwait").move(toVersion2(fixedUrl("wait", 5), Map.of(), false));
    env.sleep(Duration.ofHours(12));

    RunMoveResult second = running("heldwait").move(toVersion3(fixedUrl("wait", 5), false));

    assertThat(second.nodes())
        .containsExactly(new RunMoveResult.MovedNode("wait", "wait", waiting.seq(), until));
    assertThat(recorder.log("heldwait"))
        .filteredOn(e -> e.nodeId().equals("wait"))
        .as("the wait goes on in its own entry, with no held entry")
        .extracting(NodeLogEntry::seq)
        .containsExactly(waiting.seq());
    env.sleep(Duration.ofDays(2).plusHours(1));
    await().atMost(Duration.ofSeconds(20)).until(() -> entry("heldwait", "call").isPresent());
    assertThat(entry("heldwait", "call").orElseThrow().output()).containsKey("held");
    assertThat(http.calls).isEmpty();

    running("heldwait").control(new RunControl(RunControl.RELEASE, null, 2));

    assertThat(result("heldwait").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/fixed/7");
    assertThat(recorder.log("heldwait"))
        .extracting(NodeLogEntry::status)
        .doesNotContain(RunResult.RUNNING);
    NodeLogEntry delay = entry("heldwait", "wait").orElseThrow();
    assertThat(Instant.parse(delay.completedAt()))
        .isBefore(Instant.parse(until).plus(Duration.ofMinutes(1)));
    replays("heldwait");
  }

  /**
   * A node the run passed that the target puts after where the run goes on (a call before the wait,
   * moved after it) would act a second time: the move is refused with that reason, and the run goes
   * on in its version, each call made once.
   */
  @Test
  void aMoveThatWouldRunAPassedNodeAgainIsRefusedAndTheRunGoesOnInItsVersion() throws Exception {
    start("passed", Canvases.callWaitCall());
    await().atMost(Duration.ofSeconds(20)).until(() -> http.calls.size() == 1);
    Canvas callAfterTheWait =
        new Canvas(
            List.of(
                node("hook", "webhook_trigger", Map.of()),
                node("wait", "delay", Map.of("delayDays", 1)),
                node(
                    "first",
                    "http_request",
                    Map.of("method", "GET", "url", "https://example.com/a")),
                node(
                    "second",
                    "http_request",
                    Map.of("method", "GET", "url", "https://example.com/c"))),
            List.of(edge("hook", "wait"), edge("wait", "first"), edge("first", "second")));

    assertThatThrownBy(() -> running("passed").move(toVersion2(callAfterTheWait, Map.of(), false)))
        .isInstanceOf(WorkflowUpdateException.class)
        .rootCause()
        .hasMessageContaining("node first already ran")
        .hasMessageContaining("would run a second time");
    assertThat(recorder.moves).doesNotContainKey("passed");

    env.sleep(Duration.ofDays(1).plusHours(1));
    assertThat(result("passed").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/a", "https://example.com/b/7");
    replays("passed");
  }

  /** The run, held by its flow's pause before its call (its delay over while held). */
  private NodeLogEntry heldBeforeTheCall(String runId) {
    start(runId);
    running(runId).control(new RunControl(RunControl.HOLD, "flow paused", 1));
    env.sleep(Duration.ofDays(4));
    await().atMost(Duration.ofSeconds(20)).until(() -> entry(runId, "call").isPresent());
    return entry(runId, "call").orElseThrow();
  }

  @Test
  void aHeldRunMovesHoldsOnAndCallsVersion2sUrlOnceReleased() throws Exception {
    NodeLogEntry held = heldBeforeTheCall("held");
    assertThat(held.output()).containsEntry("held", "flow paused");

    RunMoveResult moved = running("held").move(toVersion2(fixedUrl("wait", 3), Map.of(), false));

    assertThat(moved.outcome()).isEqualTo(RunMoveResult.MOVED);
    assertThat(moved.nodes())
        .containsExactly(new RunMoveResult.MovedNode("call", "call", held.seq(), null));
    assertThat(entry("held", "move:v2").orElseThrow().output())
        .containsEntry("moved_from_version", 1)
        .containsEntry("moved_to_version", 2);
    // moved, it holds on: no call until released
    env.sleep(Duration.ofHours(1));
    assertThat(http.calls).isEmpty();
    assertThat(entry("held", "call").orElseThrow())
        .extracting(NodeLogEntry::seq, NodeLogEntry::status)
        .containsExactly(held.seq(), RunResult.RUNNING);

    running("held").control(new RunControl(RunControl.RELEASE, null, 2));

    assertThat(result("held").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/fixed/7");
    NodeLogEntry call = entry("held", "call").orElseThrow();
    assertThat(call.seq()).isEqualTo(held.seq());
    assertThat(call.status()).isEqualTo(RunResult.COMPLETED);
    assertThat(recorder.log("held"))
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("wait", "call", "move:v2");
    replays("held");
  }

  /** Version 2 of {@link Canvases#threeDayWait} whose call is a new node, {@code notify}. */
  private static Canvas callRenamed() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node("wait", "delay", Map.of("delayDays", 3)),
            node(
                "notify",
                "http_request",
                Map.of("method", "POST", "url", "https://example.com/notify/{{trigger.id}}"))),
        List.of(edge("hook", "wait"), edge("wait", "notify")));
  }

  @Test
  void aHeldRunWhoseNodeIsGoneMovesOnlyWhenMapped() throws Exception {
    NodeLogEntry held = heldBeforeTheCall("held-renamed");

    assertThatThrownBy(
            () -> running("held-renamed").move(toVersion2(callRenamed(), Map.of(), false)))
        .isInstanceOf(WorkflowUpdateException.class)
        .rootCause()
        .hasMessageContaining("node call is not in version 2 and is not mapped");
    assertThat(recorder.moves).doesNotContainKey("held-renamed");

    RunMoveResult moved =
        running("held-renamed").move(toVersion2(callRenamed(), Map.of("call", "notify"), false));

    assertThat(moved.nodes())
        .containsExactly(new RunMoveResult.MovedNode("call", "notify", held.seq(), null));
    running("held-renamed").control(new RunControl(RunControl.RELEASE, null, 2));
    assertThat(result("held-renamed").status()).isEqualTo(RunResult.COMPLETED);
    assertThat(http.calls)
        .extracting(HttpRequestCommand::url)
        .containsExactly("https://example.com/notify/7");
    // the held entry is the mapped node's now, the same entry
    assertThat(recorder.log("held-renamed"))
        .extracting(NodeLogEntry::nodeId)
        .containsExactly("wait", "notify", "move:v2");
    assertThat(entry("held-renamed", "notify").orElseThrow().seq()).isEqualTo(held.seq());
    replays("held-renamed");
  }
}
