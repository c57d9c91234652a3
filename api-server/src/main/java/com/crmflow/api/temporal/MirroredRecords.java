package com.crmflow.api.temporal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Records that mirror a workflow (a run, a webhook delivery): the workflow writes their end, so a
 * workflow closed from outside it (terminated in the Temporal UI, say) leaves them open for good
 * unless the {@link ClosedWorkflowSweep} ends them.
 */
public interface MirroredRecords {

  /**
   * An open record and its workflow.
   *
   * @param runIdMemo the memo {@code run_id} the record's execution carries, when several records
   *     share the workflow id over time (an enrollment's runs); null when the id is the record's
   *     alone
   */
  record Open(UUID id, String workflowId, String runIdMemo) {}

  /** What the records are, for the log ("run", "webhook delivery"). */
  String kind();

  /** Open records whose workflow started, created longer than {@code minimumAge} ago, by id. */
  List<Open> openAfter(UUID afterId, Duration minimumAge, int limit);

  /**
   * The open record of this kind whose workflow is this execution, created longer than {@code
   * minimumAge} ago; empty when the execution is none of this kind's, or its record has ended.
   *
   * @param runIdMemo the execution's memo {@code run_id} (null when it has none)
   */
  Optional<Open> openFor(String workflowId, String runIdMemo, Duration minimumAge);

  /**
   * Ends the record, whose workflow Temporal closed without the record's end.
   *
   * @return whether this ended it (false: it had ended meanwhile)
   */
  boolean endClosed(Open record, ClosedExecution closed);

  /**
   * How a workflow closed without its record's end.
   *
   * @param cancelled whether it was cancelled (else terminated, timed out or failed)
   * @param description "The workflow was terminated in Temporal: reason", and the like
   */
  record ClosedExecution(boolean cancelled, String description) {}
}
