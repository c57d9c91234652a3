package com.crmflow.api.embedded;

import com.crmflow.api.temporal.ClosedWorkflowSweep;
import jakarta.annotation.PreDestroy;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * On the embedded defaults, a workflow terminated in the Temporal UI (or timed out) ends its run or
 * webhook delivery on the retention's next pass once it has been closed for the sweep's {@code
 * crm.close-check.older-than}, however far the sweep's round is from it, and in any case before the
 * embedded server forgets it (see {@link ClosedWorkflowSweep#endRecordsOf}), at the latest when the
 * service stops. Against a real server the sweep alone does this.
 */
@Component
class UnfinishedWorkflowsEndTheirRecords {

  private final EmbeddedTemporal embedded;

  UnfinishedWorkflowsEndTheirRecords(
      ObjectProvider<EmbeddedTemporal> embedded, ClosedWorkflowSweep sweep) {
    this.embedded = embedded.getIfAvailable();
    if (this.embedded != null) {
      this.embedded.onUnfinishedClosed(sweep::endRecordsOf, sweep.olderThan());
    }
  }

  /**
   * The embedded server forgets every workflow when the service stops, and the next start resumes
   * every run still running: a run whose workflow was terminated in the last ~70 s before a stop
   * (the minute it waits closed, plus a pass) was resumed, as if the operator had not stopped it.
   * So its record ends now, without the minute's wait. By now the workers have stopped (a
   * terminated workflow's last local call has ended) and the database is still there (this bean
   * goes before the sweep's repositories).
   */
  @PreDestroy
  void endTheRestBeforeTheServerForgetsThem() {
    if (embedded != null) {
      embedded.handOverUnfinishedNow();
    }
  }
}
