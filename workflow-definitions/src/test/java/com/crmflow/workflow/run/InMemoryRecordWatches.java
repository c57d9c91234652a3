package com.crmflow.workflow.run;

import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.action.RecordWatch;
import com.crmflow.workflow.action.RecordWatchActivities;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for api-server's index of record watches: keeps the watches entered (by run and
 * watcher, as the table does) and answers each watch with the events set up as routed to it before.
 */
class InMemoryRecordWatches implements RecordWatchActivities {

  final Map<String, RecordWatch> watches = new ConcurrentHashMap<>();
  final List<String> left = new CopyOnWriteArrayList<>();

  /** Events routed to a watch before it is entered (by run and watcher), which it answers with. */
  final Map<String, List<RecordEvent>> routedBefore = new ConcurrentHashMap<>();

  /** Each watch as it is entered, by run and watcher. */
  final Map<String, CompletableFuture<RecordWatch>> entered = new ConcurrentHashMap<>();

  /** What a watch waits for before it answers (done: at once), so a test can hold it in flight. */
  volatile CompletableFuture<Void> answer = CompletableFuture.completedFuture(null);

  @Override
  public List<RecordEvent> watch(RecordWatch watch) {
    watches.put(watch.runId() + "/" + watch.watcher(), watch);
    entered(watch.runId() + "/" + watch.watcher()).complete(watch);
    answer.join();
    return routedBefore.getOrDefault(watch.runId() + "/" + watch.watcher(), List.of());
  }

  CompletableFuture<RecordWatch> entered(String runAndWatcher) {
    return entered.computeIfAbsent(runAndWatcher, key -> new CompletableFuture<>());
  }

  @Override
  public void unwatch(String runId, String watcher) {
    watches.remove(runId + "/" + watcher);
    left.add(runId + "/" + watcher);
  }

  /** The contacts that meet every goal, by id (a stand-in for api-server's judge of a goal). */
  final java.util.Set<String> meetingGoals = ConcurrentHashMap.newKeySet();

  /** The goal checks asked, as {@code tenant/contact}. */
  final List<String> goalChecks = new CopyOnWriteArrayList<>();

  @Override
  public boolean goalHolds(String tenantId, String contactId, Map<String, Object> goal) {
    goalChecks.add(tenantId + "/" + contactId);
    return meetingGoals.contains(contactId);
  }
}
