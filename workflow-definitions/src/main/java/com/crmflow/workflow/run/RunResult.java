package com.crmflow.workflow.run;

/** How a run ended: completed, failed or cancelled, with the error of a failed run. */
public record RunResult(String status, String error) {

  public static final String RUNNING = "running";
  public static final String COMPLETED = "completed";
  public static final String FAILED = "failed";
  public static final String CANCELLED = "cancelled";

  /** A node log status only: the node chose not to act, the run goes on. */
  public static final String SKIPPED = "skipped";
}
