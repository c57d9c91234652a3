package com.crmflow.api.embedded;

import com.google.protobuf.util.Timestamps;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.internal.testservice.TestServicesStarter;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Lock;

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
 * <p>Reads and changes private fields of the server; if they are not where this expects them,
 * {@link #attach} fails and the server is left as it is.
 */
final class ClosedWorkflowRetention {

  private final Lock serviceLock;
  private final Map<?, ?> executions;
  private final Map<?, ?> executionsByWorkflowId;
  private final Map<?, ?> executionsByFirstExecutionRunId;
  private final Lock storeLock;
  private final Map<?, ?> histories;
  private final Map<?, ?> searchAttributes;
  private final Method isCompleted;
  private final Method events;

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
   * Removes the workflows closed before {@code cutoff}, and the oldest closed ones beyond the
   * newest {@code keepAtMost}; returns how many it removed.
   */
  int removeClosed(Instant cutoff, int keepAtMost) throws ReflectiveOperationException {
    List<Object> removed = new ArrayList<>();
    // the server takes its own lock before the store's (a start saves the first events under it)
    serviceLock.lock();
    try {
      storeLock.lock();
      try {
        List<Closed> kept = new ArrayList<>();
        for (Map.Entry<?, ?> entry : histories.entrySet()) {
          long closedAt = closedAt(entry.getValue());
          if (closedAt >= cutoff.toEpochMilli()) {
            kept.add(new Closed(entry.getKey(), closedAt));
          } else if (closedAt >= 0) {
            removed.add(entry.getKey());
          }
        }
        if (kept.size() > keepAtMost) {
          kept.sort(Comparator.comparingLong(Closed::closedAt));
          kept.subList(0, kept.size() - keepAtMost).forEach(old -> removed.add(old.executionId()));
        }
        removed.forEach(histories::remove);
      } finally {
        storeLock.unlock();
      }
      if (removed.isEmpty()) {
        return 0;
      }
      Set<Object> removedStates = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Object executionId : removed) {
        removedStates.add(executions.remove(executionId));
        searchAttributes.remove(executionId);
      }
      // only where they point at a removed run: a continued-as-new chain's later run stays
      executionsByWorkflowId.values().removeIf(removedStates::contains);
      executionsByFirstExecutionRunId.values().removeIf(removedStates::contains);
    } finally {
      serviceLock.unlock();
    }
    return removed.size();
  }

  private record Closed(Object executionId, long closedAt) {}

  /** When the history's workflow closed (its last event), in epoch millis; -1 while it is open. */
  private long closedAt(Object history) throws ReflectiveOperationException {
    if (!(boolean) isCompleted.invoke(history)) {
      return -1;
    }
    List<?> all = (List<?>) events.invoke(history);
    HistoryEvent closing = (HistoryEvent) all.get(all.size() - 1);
    return Timestamps.toMillis(closing.getEventTime());
  }

  private static Method accessible(Method method) {
    method.setAccessible(true);
    return method;
  }
}
