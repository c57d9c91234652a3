package com.crmflow.workflow.node;

/**
 * A waiting node (a delay, a send window, a wait_until) that stopped waiting because the run moves
 * to another version of its flow ({@link com.crmflow.workflow.contract.RunMove}): nothing is logged
 * for it here, its entry stays running, and the node of the target version that takes its place
 * takes the entry on, with the same deadline.
 */
public class NodeMoved extends NodeEnded {

  public NodeMoved() {
    super("moved");
  }
}
