package com.crmflow.api.embedded;

/**
 * An embedded part cannot start, for a reason the person starting the service can fix: the start
 * stops with what happened and what to do (see {@link EmbeddedPartFailureAnalyzer}), not a stack
 * trace.
 */
public class EmbeddedPartUnavailable extends IllegalStateException {

  private final String action;

  public EmbeddedPartUnavailable(String description, String action) {
    super(description);
    this.action = action;
  }

  /** What to do about it. */
  public String action() {
    return action;
  }
}
