package com.crmflow.workflow.run;

/** A node that decided not to act (e.g. an email to a do_not_email contact): logged as skipped. */
class NodeSkipped extends RuntimeException {
  NodeSkipped(String reason) {
    super(reason);
  }
}
