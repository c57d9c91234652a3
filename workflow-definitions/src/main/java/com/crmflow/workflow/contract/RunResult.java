package com.crmflow.workflow.contract;

/** How a run ended: completed, failed or cancelled, with the error of a failed run. */
public record RunResult(String status, String error) {

  public static final String RUNNING = "running";
  public static final String COMPLETED = "completed";
  public static final String FAILED = "failed";
  public static final String CANCELLED = "cancelled";

  /**
   * The type of the {@code ApplicationFailure} a failed run's workflow execution fails with; its
   * message is the run's error ("node bad (http_request) failed: HTTP 404 from ...").
   */
  public static final String FAILURE_TYPE = "CrmRunFailed";

  /** A node log status only: the node chose not to act, the run goes on. */
  public static final String SKIPPED = "skipped";

  /**
   * A skipped node's reason when the run failed while it waited (a delay cut short by another
   * branch's failure, or a delay still running when a failed run was ended): a retry runs it again.
   */
  public static final String CUT_BY_FAILURE = "the run failed before this node finished";

  /**
   * A skipped node's reason when its turn came after another branch had failed the run: it never
   * started, and a retry runs it.
   */
  public static final String NOT_STARTED_FOR_FAILURE = "the run failed before this node started";
}
