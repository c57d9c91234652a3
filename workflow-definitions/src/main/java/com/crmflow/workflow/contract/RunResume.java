package com.crmflow.workflow.contract;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Where a run stands by its node log, for a workflow that goes on from there instead of from the
 * start: a retry passes over what the failed run finished, and delays it cut short wait only what
 * was left of them.
 *
 * @param done the nodes logged as finished (completed, skipped, or failed), by node id: the walk
 *     passes them again without running them, with their logged outcome (so no email or call is
 *     made twice, and their outputs are variables again)
 * @param waiting the nodes logged as running with a wake-up time (a delay, a wait_until's deadline,
 *     an email waiting for its send window), by node id: they wait until their logged wake-up time,
 *     not their full length again, and keep their log entry
 * @param lastSeq the highest seq in the log: new entries are numbered after it
 */
public record RunResume(
    Map<String, NodeOutcome> done, Map<String, WaitingDelay> waiting, int lastSeq) {

  /** A finished node's logged outcome. */
  public record NodeOutcome(String status, Map<String, Object> output, String error) {}

  /**
   * A node that was waiting: its log entry's seq, when it wakes (ISO-8601), and when it began to
   * wait (ISO-8601; null where not known).
   */
  public record WaitingDelay(
      int seq, String until, @JsonInclude(JsonInclude.Include.NON_NULL) String startedAt) {

    /** A waiting node whose start is not known. */
    public WaitingDelay(int seq, String until) {
      this(seq, until, null);
    }
  }
}
