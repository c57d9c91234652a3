package com.crmflow.api.embedded;

import com.crmflow.api.temporal.ClosedWorkflowSweep;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * On the embedded defaults, a workflow terminated in the Temporal UI (or timed out) ends its run or
 * webhook delivery on the retention's next pass once it has been closed for the sweep's {@code
 * crm.close-check.older-than}, however far the sweep's round is from it, and in any case before the
 * embedded server forgets it (see {@link ClosedWorkflowSweep#endRecordsOf}). Against a real server
 * the sweep alone does this.
 */
@Component
class UnfinishedWorkflowsEndTheirRecords {

  UnfinishedWorkflowsEndTheirRecords(
      ObjectProvider<EmbeddedTemporal> embedded, ClosedWorkflowSweep sweep) {
    embedded.ifAvailable(
        temporal -> temporal.onUnfinishedClosed(sweep::endRecordsOf, sweep.olderThan()));
  }
}
