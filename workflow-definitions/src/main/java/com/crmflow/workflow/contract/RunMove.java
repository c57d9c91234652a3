package com.crmflow.workflow.contract;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import java.util.Map;
import java.util.Set;

/**
 * What a move asks of a waiting run ({@link AutomationRunWorkflow#MOVE}): go on in another version
 * of its flow. The run takes it only at a safe point, every live branch waiting in a delay (with or
 * without a send window) or a wait_until; it goes on from the node with the same id in the target
 * version, or the one {@code mapping} names.
 *
 * @param moveId the move that asks (api-server's move job), for the run's node log
 * @param toVersion the canvas version the run goes on in
 * @param canvas that version's graph
 * @param mapping old node id to new node id, for nodes whose id the target version changed; a node
 *     not in it goes on at the node with the same id
 * @param recomputeDelays a delay whose length is shorter in the target version wakes at its start
 *     plus the new length; otherwise (and for a longer one) it keeps its deadline
 * @param keyId the API key that asked, for the run's node log
 */
public record RunMove(
    String moveId,
    int toVersion,
    Canvas canvas,
    Map<String, String> mapping,
    boolean recomputeDelays,
    String keyId) {

  /** The node types a branch may wait in while its run moves: they wait and act on nothing. */
  public static final Set<String> SAFE_TYPES =
      Set.of(NodeType.DELAY.value(), NodeType.WAIT_UNTIL.value());

  /**
   * Why a branch at this node (of this type) has no place in the target version, or null: its node
   * (the same id, or the one mapped) must be there, and a waiting node goes on only in a node of
   * its type.
   */
  public String unplaced(String nodeId, String nodeType) {
    String missing = unplacedBefore(nodeId);
    if (missing != null) {
      return missing;
    }
    String target = target(nodeId);
    CanvasNode there = canvas.node(target).orElseThrow();
    if (SAFE_TYPES.contains(nodeType) && !nodeType.equals(there.type())) {
      return "node "
          + nodeId
          + " ("
          + nodeType
          + ") would go on at "
          + target
          + " (a "
          + there.type()
          + "): a waiting node goes on only in a node of its type";
    }
    return null;
  }

  /**
   * Why a branch held before this node (by its flow's pause: the node has not started) has no place
   * in the target version, or null: its node (the same id, or the one mapped) must be there, of any
   * type.
   */
  public String unplacedBefore(String nodeId) {
    String target = target(nodeId);
    if (canvas.node(target).isPresent()) {
      return null;
    }
    return target.equals(nodeId)
        ? "node " + nodeId + " is not in version " + toVersion + " and is not mapped"
        : "node "
            + nodeId
            + " is mapped to "
            + target
            + ", which version "
            + toVersion
            + " has not";
  }

  /** Where a node of the run's version goes on in the target version. */
  public String target(String nodeId) {
    return mapping == null ? nodeId : mapping.getOrDefault(nodeId, nodeId);
  }
}
