package com.crmflow.api.recordwatch;

import com.crmflow.api.run.RunEndListener;
import com.crmflow.api.run.RunRepository;
import com.crmflow.workflow.contract.RunResult;
import org.springframework.stereotype.Component;

/**
 * A run that ends failed or cancelled takes its watches out of the index with its end (a node that
 * waited had no chance to: the run was cancelled, terminated in Temporal, or failed elsewhere). A
 * completed run's nodes took theirs out when they stopped waiting, so its end costs no statement.
 */
@Component
class RecordWatchesEnd implements RunEndListener {

  private final RecordWatches watches;

  RecordWatchesEnd(RecordWatches watches) {
    this.watches = watches;
  }

  @Override
  public void runEnded(RunRepository.EndedRun run, String status) {
    if (!RunResult.COMPLETED.equals(status)) {
      watches.leaveAll(run.id());
    }
  }
}
