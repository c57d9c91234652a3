package com.crmflow.api.embedded;

import com.crmflow.api.temporal.ClosedWorkflowSweep;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * On the embedded defaults, a workflow terminated in the Temporal UI (or timed out) ends its run or
 * webhook delivery before the embedded server forgets it, however far the sweep's round is from it
 * (see {@link ClosedWorkflowSweep#endForgotten}). Nothing to do against a real server, which keeps
 * a closed workflow for its namespace's retention period.
 */
@Component
class ForgottenWorkflowsEndTheirRecords {

  ForgottenWorkflowsEndTheirRecords(
      ObjectProvider<EmbeddedTemporal> embedded, ClosedWorkflowSweep sweep) {
    embedded.ifAvailable(temporal -> temporal.onForgettingUnfinished(sweep::endForgotten));
  }
}
