package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;
import java.util.Map;

/**
 * The index from records to the runs that wait on their events. Hosted by api-server (queue crm, or
 * locally on the embedded defaults), which owns the index and routes each event to the runs it
 * names (signal {@code record_event}).
 */
@ActivityInterface
public interface RecordWatchActivities {

  /**
   * Enters the watch in the index (again, if it is there: a run resumed where its node log stood)
   * and answers the events already routed to it, in order: those of an earlier execution of the run
   * that it may not have received.
   */
  @ActivityMethod(name = "watch_record")
  List<RecordEvent> watch(RecordWatch watch);

  /** Takes the watch out of the index: the node has stopped waiting. */
  @ActivityMethod(name = "unwatch_record")
  void unwatch(String runId, String watcher);

  /**
   * Whether the tenant's contact meets a flow's goal now ({@code
   * com.crmflow.workflow.node.FlowGoal}); false for a contact that is not the tenant's. The goal's
   * own watch (a run of a flow with a goal watches its contact from its start to its end) is kept
   * by api-server with the run's record.
   */
  @ActivityMethod(name = "goal_holds")
  boolean goalHolds(String tenantId, String contactId, Map<String, Object> goal);
}
