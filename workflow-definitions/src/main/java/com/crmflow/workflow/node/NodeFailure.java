package com.crmflow.workflow.node;

/** A node that cannot complete: fails the run unless the node continues on failure. */
public class NodeFailure extends RuntimeException {
  public NodeFailure(String message) {
    super(message);
  }
}
