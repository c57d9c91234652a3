package com.crmflow.api.recordwatch;

import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.action.RecordWatch;
import com.crmflow.workflow.action.RecordWatchActivities;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/** The record watches of wait_until nodes (task queue crm, or local on the embedded defaults). */
@Component("recordWatchActivities")
class RecordWatchActivitiesImpl implements RecordWatchActivities {

  private final RecordWatches watches;
  private final TransactionTemplate transaction;

  RecordWatchActivitiesImpl(RecordWatches watches, TransactionTemplate transaction) {
    this.watches = watches;
    this.transaction = transaction;
  }

  @Override
  public List<RecordEvent> watch(RecordWatch watch) {
    return transaction.execute(
        tx -> {
          watches.enter(watch);
          return watches.routedTo(UUID.fromString(watch.runId()), watch.watcher());
        });
  }

  @Override
  public void unwatch(String runId, String watcher) {
    transaction.executeWithoutResult(tx -> watches.leave(UUID.fromString(runId), watcher));
  }
}
