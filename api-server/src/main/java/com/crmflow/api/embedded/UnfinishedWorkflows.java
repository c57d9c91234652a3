package com.crmflow.api.embedded;

import io.temporal.api.history.v1.HistoryEvent;

/**
 * Told of each workflow that closed other than by completing (terminated, timed out, failed,
 * cancelled) while the embedded server still keeps it (see {@link ClosedWorkflowRetention}), so
 * that the record it mirrors can be ended while there is something to go on.
 */
@FunctionalInterface
public interface UnfinishedWorkflows {

  /**
   * Called once per such workflow, a while after it closed and in any case before the server
   * forgets it.
   *
   * @param started the workflow's first event (its memo names the run it was started for)
   * @param closing its last event: how it closed
   * @throws RuntimeException when its record could not be seen to: the workflow is kept, and
   *     offered again on the next pass
   */
  void closed(String workflowId, HistoryEvent started, HistoryEvent closing);
}
