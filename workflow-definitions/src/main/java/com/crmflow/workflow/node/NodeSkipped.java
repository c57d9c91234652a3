package com.crmflow.workflow.node;

import java.util.Map;

/** A node that decided not to act (e.g. an email to a do_not_email contact): logged as skipped. */
public class NodeSkipped extends RuntimeException {
  public NodeSkipped(String reason) {
    super(reason);
  }

  /** The skipped node's logged output: {@code {skipped: reason}}. */
  public Map<String, Object> output() {
    return Map.of("skipped", getMessage());
  }
}
