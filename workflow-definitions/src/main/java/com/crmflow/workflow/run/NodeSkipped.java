package com.crmflow.workflow.run;

import java.util.Map;

/** A node that decided not to act (e.g. an email to a do_not_email contact): logged as skipped. */
class NodeSkipped extends RuntimeException {
  NodeSkipped(String reason) {
    super(reason);
  }

  /** The skipped node's logged output: {@code {skipped: reason}}. */
  Map<String, Object> output() {
    return Map.of("skipped", getMessage());
  }
}
