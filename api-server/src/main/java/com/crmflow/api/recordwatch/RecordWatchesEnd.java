package com.crmflow.api.recordwatch;

import com.crmflow.api.run.RunEndListener;
import com.crmflow.api.run.RunRepository;
import com.crmflow.workflow.contract.RunResult;
import org.springframework.stereotype.Component;

/**
 * A run that ends failed or cancelled takes its watches out of the index with its end (a node that
 * waited had no chance to: the run was cancelled, terminated in Temporal, or failed elsewhere), and
 * so does a run that completed at its goal (a wait_until it was waiting in was cut short). A run
 * that completed its last node had its nodes take theirs out when they stopped waiting, so its end
 * costs no statement.
 */
@Component
class RecordWatchesEnd implements RunEndListener {

  private final RecordWatches watches;

  RecordWatchesEnd(RecordWatches watches) {
    this.watches = watches;
  }

  @Override
  public void runEnded(RunRepository.EndedRun run, String status) {
    if (!RunResult.COMPLETED.equals(status) || run.endedEarly()) {
      watches.leaveAll(run.id());
    }
  }
}
