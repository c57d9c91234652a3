package com.crmflow.api.nodestats;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A flow's counts per node: {@code GET /api/sequences/:id/stats}.
 *
 * @param since the start of the counts of ended entries (the hour {@code since} falls in), or null:
 *     all time
 * @param goalsMet runs whose goal was met, over every version (not only those shown)
 * @param versions the current version first, then each older version that runs still run on
 */
record NodeStats(
    UUID sequenceId,
    int currentVersion,
    Instant since,
    @Schema(
            description =
                "runs that ended because their contact met the flow's goal, at any node of any"
                    + " version (since since)")
        long goalsMet,
    List<VersionStats> versions) {

  /**
   * @param current whether it is the flow's current version
   * @param runsInFlight whether runs still run on it
   * @param nodes its nodes, in the canvas's order
   */
  record VersionStats(int version, boolean current, boolean runsInFlight, List<NodeCounts> nodes) {}

  /**
   * @param waiting runs waiting at the node now (a delay, a wait_until, an email waiting for its
   *     window): whatever {@code since} says
   * @param passed runs that completed the node
   * @param failed runs that failed at it
   * @param skipped runs that skipped it (an email to a do_not_email contact, a node the run's
   *     failure or cancel left unrun), the runs that met their goal there aside
   * @param goalMet runs whose goal was met at the node (0: a flow with no goal)
   * @param branches a split's runs per branch, in its order; null for other nodes
   */
  record NodeCounts(
      String nodeId,
      String type,
      String label,
      long waiting,
      long passed,
      long failed,
      long skipped,
      @Schema(description = "runs whose goal was met at the node (0: a flow with no goal)")
          long goalMet,
      @Schema(nullable = true) List<BranchCount> branches) {}

  /** A split's runs that went down one branch. */
  record BranchCount(String label, long passed) {}
}
