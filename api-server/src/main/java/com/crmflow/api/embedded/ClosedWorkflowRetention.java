package com.crmflow.api.embedded;

import com.google.common.collect.Lists;
import com.google.protobuf.util.Timestamps;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.internal.testservice.ExecutionId;
import io.temporal.internal.testservice.TestServicesStarter;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A retention period for the embedded Temporal test server (temporal-test-server 1.38). The test
 * server keeps every workflow it ever ran, closed ones included, with its whole history, in this
 * JVM's heap, and has no call to delete one: an embedded service that runs for long enough under
 * steady triggers fills its heap and fails. A real Temporal server keeps a closed workflow for the
 * namespace's retention period, then deletes it. This does the same: it removes workflows closed
 * before a given time from the server's maps (the executions, their histories and their search
 * attributes), and, so that memory stays bounded under any load, the oldest closed workflows beyond
 * a given count. Open workflows are never touched. Run records and node logs are in PostgreSQL and
 * are not affected.
 *
 * <p>A workflow that closed other than by completing (terminated in the Temporal UI, timed out)
 * left its record open, and {@link com.crmflow.api.temporal.ClosedWorkflowSweep} ends such records
 * as it comes to them: 100 every 30 s, so hours later when many runs wait, and once the workflow is
 * forgotten it finds nothing to go on. Since a pass looks at every closed workflow anyway, it hands
 * each such workflow to the {@link UnfinishedWorkflows} listener, if one is set, once it has been
 * closed for a while, and in any case before removing it; one the listener fails on is offered
 * again on the next pass, and kept until it takes it.
 *
 * <p>Reads and changes private fields of the server; if they are not where this expects them,
 * {@link #attach} fails and the server is left as it is.
 */
final class ClosedWorkflowRetention {

  private static final Logger log = LoggerFactory.getLogger(ClosedWorkflowRetention.class);

  /**
   * Workflows looked at, or removed, per hold of the server's locks (while a pass holds them, every
   * workflow task waits). Over the whole of 10,000 closed workflows at once, a pass held them for
   * 30–120 ms every 10 s under load, and every workflow task of every run waited that long.
   */
  static final int PER_LOCK_HOLD = 500;

  private final Lock serviceLock;
  private final Map<?, ?> executions;
  private final Map<?, ?> executionsByWorkflowId;
  private final Map<?, ?> executionsByFirstExecutionRunId;
  private final Lock storeLock;
  private final Map<?, ?> histories;
  private final Map<?, ?> searchAttributes;
  private final Method isCompleted;
  private final Method events;
  private volatile UnfinishedWorkflows listener;
  private volatile Duration handOverAfter = Duration.ZERO;

  /** The closed workflows the listener took (removed from here as they are removed). */
  private final Set<Object> handedOver = ConcurrentHashMap.newKeySet();

  private ClosedWorkflowRetention(Object service, Object store, Object visibility)
      throws ReflectiveOperationException {
    this.serviceLock = (Lock) TestServerInternals.read(service, "lock");
    this.executions = (Map<?, ?>) TestServerInternals.read(service, "executions");
    this.executionsByWorkflowId =
        (Map<?, ?>) TestServerInternals.read(service, "executionsByWorkflowId");
    this.executionsByFirstExecutionRunId =
        (Map<?, ?>) TestServerInternals.read(service, "executionsByFirstExecutionRunId");
    this.storeLock = (Lock) TestServerInternals.read(store, "lock");
    this.histories = (Map<?, ?>) TestServerInternals.read(store, "histories");
    this.searchAttributes =
        (Map<?, ?>) TestServerInternals.read(visibility, "executionSearchAttributes");
    Class<?> history = Class.forName(store.getClass().getName() + "$HistoryStore");
    this.isCompleted = accessible(history.getDeclaredMethod("isCompleted"));
    this.events = accessible(history.getDeclaredMethod("getHistory"));
  }

  /** Fails when the server's internals are not as this expects them. */
  static ClosedWorkflowRetention attach(TestServicesStarter starter)
      throws ReflectiveOperationException {
    return new ClosedWorkflowRetention(
        TestServerInternals.read(starter, "workflowService"),
        TestServerInternals.read(starter, "workflowStore"),
        TestServerInternals.read(starter, "visibilityStore"));
  }

  /**
   * Hands each workflow that closed other than by completing to the listener once it has been
   * closed for {@code after}, and in any case before it goes.
   */
  void onUnfinishedClosed(UnfinishedWorkflows listener, Duration after) {
    this.handOverAfter = after;
    this.listener = listener;
  }

  /**
   * How long a workflow that closed other than by completing is closed before it is handed over.
   */
  Duration handOverAfter() {
    return handOverAfter;
  }

  /**
   * Removes the workflows closed before {@code cutoff}, those that completed (or continued as new)
   * before {@code completedCutoff}, and the oldest closed ones beyond the newest {@code
   * keepAtMost}; returns how many it removed. Hands the listener each workflow that closed other
   * than by completing before {@code handOverBefore}, and each such one it removes.
   */
  synchronized int removeClosed(
      Instant cutoff, Instant completedCutoff, int keepAtMost, Instant handOverBefore)
      throws ReflectiveOperationException {
    UnfinishedWorkflows told = listener;
    Pass pass = look(cutoff, completedCutoff, keepAtMost, handOverBefore);
    if (told != null) {
      pass.toHandOver().forEach(closed -> handOver(told, closed));
    }
    List<Object> removable = new ArrayList<>();
    for (ClosedWorkflow expiring : pass.expiring()) {
      if (told == null
          || !expiring.unfinished()
          || handedOver.contains(expiring.executionId())
          || handOver(told, expiring)) {
        removable.add(expiring.executionId());
      }
    }
    int removed = remove(removable);
    removable.forEach(handedOver::remove);
    return removed;
  }

  /** What a pass found: the workflows due to be removed, and those to hand over now. */
  private record Pass(List<ClosedWorkflow> expiring, List<ClosedWorkflow> toHandOver) {}

  /** A closed workflow, with how it closed. */
  private record ClosedWorkflow(Object executionId, List<HistoryEvent> events) {

    HistoryEvent closing() {
      return events.get(events.size() - 1);
    }

    /** Closed other than by completing or continuing as new. */
    boolean unfinished() {
      EventType type = closing().getEventType();
      return type != EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED
          && type != EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW;
    }
  }

  /**
   * The closed workflows due to be removed or handed over. Read under the store's lock (it guards
   * the histories; a history's events do not change once it is closed), a few hundred at a time.
   */
  private Pass look(Instant cutoff, Instant completedCutoff, int keepAtMost, Instant handOverBefore)
      throws ReflectiveOperationException {
    long completedKeptFrom = Math.max(cutoff.toEpochMilli(), completedCutoff.toEpochMilli());
    List<Object> executionIds;
    storeLock.lock();
    try {
      executionIds = new ArrayList<>(histories.keySet());
    } finally {
      storeLock.unlock();
    }
    List<ClosedWorkflow> expiring = new ArrayList<>();
    List<ClosedWorkflow> toHandOver = new ArrayList<>();
    List<Kept> kept = new ArrayList<>();
    for (List<Object> some : Lists.partition(executionIds, PER_LOCK_HOLD)) {
      storeLock.lock();
      try {
        for (Object executionId : some) {
          Object history = histories.get(executionId);
          long closedAt = history == null ? -1 : closedAt(history);
          if (closedAt < 0) {
            continue; // open, or removed meanwhile
          }
          ClosedWorkflow closed = new ClosedWorkflow(executionId, events(history));
          if (closedAt >= (closed.unfinished() ? cutoff.toEpochMilli() : completedKeptFrom)) {
            kept.add(new Kept(closed, closedAt));
            if (closedAt < handOverBefore.toEpochMilli()
                && closed.unfinished()
                && !handedOver.contains(executionId)) {
              toHandOver.add(closed);
            }
          } else {
            expiring.add(closed);
          }
        }
      } finally {
        storeLock.unlock();
      }
    }
    if (kept.size() > keepAtMost) {
      kept.sort(Comparator.comparingLong(Kept::closedAt));
      Set<ClosedWorkflow> oldest = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Kept old : kept.subList(0, kept.size() - keepAtMost)) {
        expiring.add(old.workflow());
        oldest.add(old.workflow());
      }
      toHandOver.removeIf(oldest::contains); // handed over as they are removed
    }
    return new Pass(expiring, toHandOver);
  }

  /** Whether the listener took the workflow (outside the server's locks: it writes records). */
  private boolean handOver(UnfinishedWorkflows told, ClosedWorkflow closed) {
    String workflowId = ((ExecutionId) closed.executionId()).getExecution().getWorkflowId();
    try {
      told.closed(workflowId, closed.events().get(0), closed.closing());
      handedOver.add(closed.executionId());
      return true;
    } catch (RuntimeException notTaken) {
      log.warn(
          "Keeping closed workflow {} until its record can be ended: {}",
          workflowId,
          notTaken.toString());
      return false;
    }
  }

  /**
   * Removes the closed workflows from the server's maps, a few hundred per hold of its locks;
   * returns how many were still there.
   */
  private int remove(List<Object> executionIds) {
    int removed = 0;
    for (List<Object> some : Lists.partition(executionIds, PER_LOCK_HOLD)) {
      removed += removeUnderTheLocks(some);
    }
    return removed;
  }

  private int removeUnderTheLocks(List<Object> executionIds) {
    List<Object> removed = new ArrayList<>();
    serviceLock.lock();
    try {
      storeLock.lock();
      try {
        for (Object executionId : executionIds) {
          if (histories.remove(executionId) != null) {
            removed.add(executionId);
          }
        }
      } finally {
        storeLock.unlock();
      }
      Set<Object> removedStates = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Object executionId : removed) {
        Object state = executions.remove(executionId);
        removedStates.add(state);
        searchAttributes.remove(executionId);
        // only where it points at the removed run: a continued-as-new chain's later run stays
        executionsByWorkflowId.remove(((ExecutionId) executionId).getWorkflowId(), state);
      }
      executionsByFirstExecutionRunId.values().removeIf(removedStates::contains);
    } finally {
      serviceLock.unlock();
    }
    return removed.size();
  }

  /** A closed workflow kept by the cutoff, and when it closed. */
  private record Kept(ClosedWorkflow workflow, long closedAt) {}

  /** When the history's workflow closed (its last event), in epoch millis; -1 while it is open. */
  private long closedAt(Object history) throws ReflectiveOperationException {
    if (!(boolean) isCompleted.invoke(history)) {
      return -1;
    }
    List<HistoryEvent> all = events(history);
    return Timestamps.toMillis(all.get(all.size() - 1).getEventTime());
  }

  @SuppressWarnings("unchecked")
  private List<HistoryEvent> events(Object history) throws ReflectiveOperationException {
    return (List<HistoryEvent>) events.invoke(history);
  }

  private static Method accessible(Method method) {
    method.setAccessible(true);
    return method;
  }
}
