package com.crmflow.workflow.node;

/**
 * A waiting node (a delay, a send window, a wait_until) that stopped waiting because the run was
 * asked to end ({@link com.crmflow.workflow.contract.RunControl#END}): logged skipped with the
 * reason ({@code flow paused}) and not passed; the run ends cancelled.
 */
public class NodeEnded extends NodeSkipped {

  public NodeEnded(String reason) {
    super(reason);
  }
}
