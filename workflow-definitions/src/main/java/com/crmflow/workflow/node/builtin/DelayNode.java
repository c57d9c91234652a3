package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.node.ConfigCheck;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.DryRuns;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeConfig;
import com.crmflow.workflow.node.NodeCut;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeMoved;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.node.SendWindow;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * delay: a durable timer of delayDays, delayHours and delayMinutes. With a send window it ends at
 * the first moment inside the window at or after its length ({@link SendWindows}). A resumed run's
 * delay that was waiting, and a retry's delay that a failure cut short, wake at the time logged for
 * them.
 */
final class DelayNode implements NodeExecutor {

  @Override
  public List<NodeActivity<?>> activities() {
    return List.of(SendWindows.ACTIVITY);
  }

  /**
   * In a run with this change a failure in another branch cuts the delay short: it is logged
   * skipped and the run ends at once. In a run without it the delay waits its full length, and with
   * inline chains the run ends only when the delay is over (a day later, for a day's delay).
   */
  static final String FAILURE_CUTS_DELAYS = "failure-cuts-delays";

  @Override
  public NodeType type() {
    return NodeType.DELAY;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.DELAY,
            "Delay",
            NodeDescriptor.LOGIC,
            "hourglass",
            "waits",
            List.of(
                ConfigField.number("delayDays", "Days", 0, 3650)
                    .duration(ChronoUnit.DAYS)
                    .check(ConfigCheck.NON_NEGATIVE_NUMBER)
                    .help(
                        "delayDays, delayHours and delayMinutes together above 0, unless a window"
                            + " is set"),
                ConfigField.number("delayHours", "Hours", 0, 3650)
                    .duration(ChronoUnit.HOURS)
                    .check(ConfigCheck.NON_NEGATIVE_NUMBER),
                ConfigField.number("delayMinutes", "Minutes", 0, 5_256_000)
                    .duration(ChronoUnit.MINUTES),
                SendWindows.field()
                    .help(
                        "the delay ends at the first moment inside it at or after its length; "
                            + SendWindows.field().help())),
            NodeAccess.NONE,
            List.of())
        .withAdvice(NodeDescriptor.Advice.WAIT)
        .withSummary(
            NodeDescriptor.Summary.of(" ", "delayDays", "delayHours", "delayMinutes", "window")
                .lead("Wait"))
        .withMechanics("until", "waitedSeconds")
        .withOutput("waitedSeconds", "how long it waited, in seconds");
  }

  /** A window in the contact's zone reads the contact (its timezone). */
  @Override
  public NodeAccess accessOf(CanvasNode node) {
    SendWindow window = SendWindows.of(node);
    return window != null && window.contactsZone()
        ? NodeAccess.reads(FlowAccess.CONTACT)
        : descriptor().access();
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    if (duration(node).isZero() && SendWindows.of(node) == null) {
      problems.add(
          CanvasProblem.node(
              node.id(),
              "data.config.delayDays",
              "a delay needs delayDays, delayHours or delayMinutes above 0, or a send window"));
    }
  }

  /**
   * "until" lets operators (and the enrollment list's next step time) see when it wakes. A delay
   * with a window logs it when it runs, with the zone it used ({@link SendWindows#await}).
   */
  @Override
  public Map<String, Object> runningOutput(CanvasNode node, NodeRun run) {
    if (SendWindows.of(node) != null) {
      return null;
    }
    return Map.of("until", NodeLogEntry.timestamp(wakeUp(node, run)));
  }

  /**
   * In a test run the delay does not wait: its output says the wait it would have made (its length,
   * and its send window if it has one).
   */
  @Override
  public Map<String, Object> wouldDo(CanvasNode node, NodeRun run) {
    Map<String, Object> more = new LinkedHashMap<>();
    more.put("waitedSeconds", 0);
    more.put("would_wait_seconds", duration(node).toSeconds());
    if (SendWindows.of(node) != null) {
      more.put("send_window", true);
    }
    return DryRuns.wouldWait(describe(node), more);
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    SendWindow window = SendWindows.of(node);
    if (window != null) {
      Duration length = duration(node);
      Map<String, Object> output = new LinkedHashMap<>();
      output.put("waitedSeconds", length.toSeconds());
      output.put(
          "window",
          SendWindows.await(
              node,
              run,
              window,
              Instant.ofEpochMilli(Workflow.currentTimeMillis()).plus(length),
              SendWindows.logged(node, run),
              length.isZero()
                  ? "wait for the window"
                  : "wait " + describe(node) + " and for the window"));
      return output;
    }
    Duration duration = duration(node);
    boolean wakesAtLoggedTime = run.input().loggedWakeUp(node) != null;
    Instant wakeUp = wakeUp(node, run);
    Duration left =
        wakesAtLoggedTime
            ? Duration.between(Instant.ofEpochMilli(Workflow.currentTimeMillis()), wakeUp)
            : duration;
    // a resumed or retried delay waits only for what is left of it, if anything
    if (!wakesAtLoggedTime || left.compareTo(Duration.ZERO) > 0) {
      boolean cutByFailure = run.since(FAILURE_CUTS_DELAYS);
      WaitTimer waiting = WaitTimer.start(left, "wait " + describe(node));
      Promise<Void> timer = waiting.timer();
      Workflow.await(() -> timer.isCompleted() || (cutByFailure && run.failed()) || run.endAsked());
      if (!timer.isCompleted() && cutByFailure && run.failed()) {
        // with failure-settles-branches, its retry wakes when it would have
        throw new NodeCut(run.branchesSettle() ? NodeLogEntry.timestamp(wakeUp) : null);
      }
      if (!timer.isCompleted()) {
        endWaiting(run, waiting.scope());
      }
      timer.get();
    }
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("waitedSeconds", duration.toSeconds());
    return output;
  }

  /**
   * The run was asked to end or to move while the delay waited ({@link NodeRun#endWaiting}). A move
   * cancels the timer, which the node of the version it moves to starts again for the same
   * deadline: two timers firing at once could end the run in a workflow task that a timer's event
   * makes the server refuse, and a refused task runs its local activities (a call) again.
   */
  static void endWaiting(NodeRun run, CancellationScope waiting) {
    try {
      run.endWaiting();
    } catch (NodeMoved moved) {
      waiting.cancel();
      throw moved;
    }
  }

  /**
   * When a delay that starts now wakes: at the time logged for it before (a resumed run's delay
   * that was waiting, a retry's delay that the failure cut short), else its length from now.
   */
  private static Instant wakeUp(CanvasNode node, NodeRun run) {
    String logged = run.input().loggedWakeUp(node);
    return logged != null
        ? Instant.parse(logged)
        : Instant.ofEpochMilli(Workflow.currentTimeMillis()).plus(duration(node));
  }

  private static Duration duration(CanvasNode node) {
    double hours =
        NodeConfig.number(node.config("delayDays")) * 24
            + NodeConfig.number(node.config("delayHours"))
            + NodeConfig.number(node.config("delayMinutes")) / 60;
    return Duration.ofMillis(Math.round(hours * 3_600_000));
  }

  private static String describe(CanvasNode node) {
    return NodeDurations.describe(
        NodeConfig.number(node.config("delayDays")),
        NodeConfig.number(node.config("delayHours")),
        NodeConfig.number(node.config("delayMinutes")));
  }
}
