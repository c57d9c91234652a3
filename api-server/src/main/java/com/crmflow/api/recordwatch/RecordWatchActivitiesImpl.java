package com.crmflow.api.recordwatch;

import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.action.RecordWatch;
import com.crmflow.workflow.action.RecordWatchActivities;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The record watches of wait_until nodes, and the check of a flow's goal before a run's next node
 * (task queue crm, or local on the embedded defaults).
 */
@Component("recordWatchActivities")
class RecordWatchActivitiesImpl implements RecordWatchActivities {

  private final RecordWatches watches;
  private final TransactionTemplate transaction;
  private final RecordGoals goals;

  RecordWatchActivitiesImpl(
      RecordWatches watches, TransactionTemplate transaction, RecordGoals goals) {
    this.watches = watches;
    this.transaction = transaction;
    this.goals = goals;
  }

  @Override
  public boolean goalHolds(String tenantId, String contactId, Map<String, Object> goal) {
    return goals.holds(UUID.fromString(tenantId), contactId, goal);
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
