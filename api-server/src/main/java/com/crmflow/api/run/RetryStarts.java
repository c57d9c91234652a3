package com.crmflow.api.run;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.rules.CanvasRules;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a retry of a failed run starts: every node the failed run left unrun. That is each failed
 * node (but one that continues on failure: what follows it ran), each delay the failure cut short,
 * and each node whose turn came after the failure ({@link RunResult#CUT_BY_FAILURE}, {@link
 * RunResult#NOT_STARTED_FOR_FAILURE}). A node that follows another of them is left out: it runs
 * after that one, once. The node named in the run's error comes first: it is the retry's {@code
 * start_node_id}.
 */
final class RetryStarts {

  private RetryStarts() {}

  /**
   * @param log the failed run's node log in execution order
   * @param error the failed run's error ("node bad (http_request) failed: ...")
   * @return the nodes in order, the first being the failed node; empty when the log names none
   */
  static List<String> of(Canvas canvas, List<NodeLogEntry> log, String error) {
    Set<String> unrun = new LinkedHashSet<>();
    for (NodeLogEntry entry : log) {
      if (leftUnrun(canvas, entry)) {
        unrun.add(entry.nodeId());
      }
    }
    List<String> starts = new ArrayList<>();
    for (String node : unrun) {
      boolean afterAnother =
          unrun.stream()
              .anyMatch(
                  other ->
                      !other.equals(node)
                          && CanvasRules.reachableFrom(canvas, List.of(other)).contains(node));
      if (!afterAnother) {
        boolean namedInTheError = error != null && error.startsWith("node " + node + " (");
        starts.add(namedInTheError ? 0 : starts.size(), node);
      }
    }
    return starts;
  }

  /**
   * Whether the run failed at a node of its own, the first of {@code starts} (its error names it);
   * otherwise it was stopped in Temporal ("The workflow was terminated in Temporal: ...").
   */
  static boolean failedAtANode(List<String> starts, String error) {
    return !starts.isEmpty() && error != null && error.startsWith("node " + starts.get(0) + " (");
  }

  private static boolean leftUnrun(Canvas canvas, NodeLogEntry entry) {
    if (RunResult.FAILED.equals(entry.status())) {
      return canvas
          .node(entry.nodeId())
          .map(node -> !Boolean.TRUE.equals(node.config("continueOnFailure")))
          .orElse(false);
    }
    Object reason = entry.output() == null ? null : entry.output().get("skipped");
    return RunResult.SKIPPED.equals(entry.status())
        && (RunResult.CUT_BY_FAILURE.equals(reason)
            || RunResult.NOT_STARTED_FOR_FAILURE.equals(reason));
  }
}
