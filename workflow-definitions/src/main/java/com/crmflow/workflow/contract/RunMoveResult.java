package com.crmflow.workflow.contract;

import java.util.List;

/**
 * What a run answers a move ({@link RunMove}).
 *
 * @param outcome {@value #MOVED}, {@value #ALREADY} (it runs that version already: nothing changed)
 *     or {@value #NOT_MOVED} (it ended, or a branch went on to a node the target version has not,
 *     while it was moving: it goes on in its version)
 * @param fromVersion the version it ran before
 * @param toVersion the version it runs now
 * @param nodes where each branch was and where it goes on
 * @param reason why it did not move, or null
 */
public record RunMoveResult(
    String outcome, int fromVersion, int toVersion, List<MovedNode> nodes, String reason) {

  public static final String MOVED = "moved";
  public static final String ALREADY = "already";
  public static final String NOT_MOVED = "not_moved";

  /**
   * A branch of a moved run.
   *
   * @param fromNode the node it waited at (or held before, or was about to start) in the version it
   *     left
   * @param toNode the node it goes on at in the target version
   * @param seq the seq of the log entry of the node it waited at (or held before, its flow paused),
   *     which the node in the target version takes on; null for a branch that was about to start
   *     its node
   * @param until when the waiting node wakes (ISO-8601), or null
   */
  public record MovedNode(String fromNode, String toNode, Integer seq, String until) {}

  public boolean moved() {
    return MOVED.equals(outcome);
  }
}
