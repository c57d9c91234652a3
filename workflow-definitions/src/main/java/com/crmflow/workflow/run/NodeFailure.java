package com.crmflow.workflow.run;

/** A node that cannot complete: fails the run unless the node continues on failure. */
class NodeFailure extends RuntimeException {
  NodeFailure(String message) {
    super(message);
  }
}
