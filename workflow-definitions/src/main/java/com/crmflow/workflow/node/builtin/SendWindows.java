package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.SendWindowActivities;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeActivities;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeCut;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.node.SendWindow;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wait of a node with a send window (a delay that ends in it, an email that goes out in it):
 * its zone (the contact's, looked up when the node runs), the first moment inside the window, the
 * node's running log entry that shows both, and the durable timer.
 */
final class SendWindows {

  /** The send window's zone, read where the run's contact lives (locally when it may). */
  static final NodeActivity<SendWindowActivities> ACTIVITY =
      NodeActivity.on(TaskQueues.CRM, SendWindowActivities.class).orLocal();

  private SendWindows() {}

  /** The config field of a window, on the nodes that take one. */
  static ConfigField field() {
    return ConfigField.of(SendWindow.KEY, "Send window", FieldKind.WINDOW)
        .help(
            "days 1 (Monday) to 7 (Sunday), from and to HH:mm, timezone: contact (the contact's,"
                + " else the flow's, else the tenant's) or an IANA zone");
  }

  /** The node's window, or null. */
  static SendWindow of(CanvasNode node) {
    return SendWindow.of(node.config(SendWindow.KEY));
  }

  /**
   * When the node logged that it wakes, before its workflow was lost (a resumed run) or its run
   * failed (a retry): it wakes then, not at a moment computed again.
   */
  static Instant logged(CanvasNode node, NodeRun run) {
    String until = run.input().loggedWakeUp(node);
    return until == null ? null : Instant.parse(until);
  }

  /**
   * Waits until the first moment inside the window at or after {@code earliest} (or until {@code
   * logged}), logging the node running with that moment and the zone first, and answers them as the
   * node's output shows them: {@code {until, zone, zone_from, opens}}.
   *
   * @param logged when the node logged before that it wakes, or null
   * @param summary the timer's summary in the Temporal UI
   * @throws NodeCut the run failed in another branch while the node waited
   */
  static Map<String, Object> await(
      CanvasNode node,
      NodeRun run,
      SendWindow window,
      Instant earliest,
      Instant logged,
      String summary) {
    Map<String, Object> shown = new LinkedHashMap<>();
    ZoneId zone;
    String from;
    if (window.contactsZone()) {
      RunInput input = run.input();
      String contactId = run.contactId();
      SendWindowActivities.WindowZone found =
          NodeActivities.call(
              ACTIVITY,
              node,
              run,
              zones ->
                  zones.zone(
                      input.tenantId(), input.sequenceId(), input.canvasVersion(), contactId),
              input.tenantId(),
              input.sequenceId(),
              input.canvasVersion(),
              contactId);
      zone = ZoneId.of(found.zone());
      from = found.from();
    } else {
      zone = ZoneId.of(window.timezone());
      from = "node";
    }
    Instant until = logged != null ? logged : window.firstOpen(earliest, zone);
    shown.put("until", NodeLogEntry.timestamp(until));
    shown.put("zone", zone.getId());
    shown.put("zone_from", from);
    shown.put("opens", until.atZone(zone).toOffsetDateTime().toString());
    if (logged == null) {
      run.running(node, shown);
    }
    Duration left = Duration.between(Instant.ofEpochMilli(Workflow.currentTimeMillis()), until);
    if (left.compareTo(Duration.ZERO) > 0) {
      WaitTimer waiting = WaitTimer.start(left, summary);
      Promise<Void> timer = waiting.timer();
      Workflow.await(() -> timer.isCompleted() || run.failed() || run.endAsked());
      if (!timer.isCompleted() && run.failed()) {
        throw new NodeCut(run.branchesSettle() ? NodeLogEntry.timestamp(until) : null);
      }
      if (!timer.isCompleted()) {
        DelayNode.endWaiting(run, waiting.scope());
        Workflow.await(() -> timer.isCompleted() || run.failed());
        if (!timer.isCompleted()) {
          throw new NodeCut(run.branchesSettle() ? NodeLogEntry.timestamp(until) : null);
        }
      }
    }
    return shown;
  }
}
