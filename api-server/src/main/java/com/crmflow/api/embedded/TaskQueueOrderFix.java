package com.crmflow.api.embedded;

import io.temporal.internal.testservice.TestServicesStarter;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Works around an ordering bug in the Temporal Java test server (temporal-test-server 1.38): a task
 * queue keeps the tasks no poller is waiting for in a {@code java.util.PriorityQueue}, and every
 * task has the same priority, so the order they come out in is the heap's, not their arrival's.
 * Under load some tasks wait while thousands that came later go first: in the trigger benchmark a
 * run's "wait 1 s" sometimes took 30 s, the workflow task after its timer sitting in the backlog. A
 * real Temporal server serves a task queue's backlog in order.
 *
 * <p>This gives each task queue of the server, as it is created, a backlog that serves equal
 * priorities first in, first out. If the server's internals change, the fix reports that and leaves
 * the server as it is.
 */
final class TaskQueueOrderFix {

  private TaskQueueOrderFix() {}

  /** Returns null when applied, otherwise why not. Call before the server has any task queue. */
  static String apply(TestServicesStarter starter) {
    try {
      Object store = TestServerInternals.read(starter, "workflowStore");
      for (String queues : new String[] {"workflowTaskQueues", "activityTaskQueues"}) {
        if (!((Map<?, ?>) TestServerInternals.read(store, queues)).isEmpty()) {
          return queues + " is not empty";
        }
        TestServerInternals.replace(store, queues, new InOrderQueues<>());
      }
      return null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return e.toString();
    }
  }

  /** The store's map of task queues: each queue put into it gets an in-order backlog. */
  private static final class InOrderQueues<K, Q> extends HashMap<K, Q> {
    @Override
    public Q put(K key, Q queue) {
      try {
        PriorityQueue<?> original = (PriorityQueue<?>) TestServerInternals.read(queue, "backlog");
        TestServerInternals.replace(queue, "backlog", new InOrderBacklog<>(original.comparator()));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("the test server's TaskQueue changed", e);
      }
      return super.put(key, queue);
    }
  }

  /**
   * A priority queue that serves equal priorities in arrival order. The task queue uses add, poll
   * and isEmpty, always under its own lock; the rest is there to keep the type honest.
   */
  static final class InOrderBacklog<T> extends PriorityQueue<T> {

    private record Entry<T>(T value, long arrival) {}

    private final PriorityQueue<Entry<T>> entries;
    private long arrivals;

    InOrderBacklog(Comparator<? super T> priority) {
      Comparator<Entry<T>> byPriority =
          priority == null ? (a, b) -> 0 : (a, b) -> priority.compare(a.value(), b.value());
      this.entries = new PriorityQueue<>(byPriority.thenComparingLong(Entry::arrival));
    }

    @Override
    public boolean offer(T value) {
      return entries.offer(new Entry<>(value, arrivals++));
    }

    @Override
    public boolean add(T value) {
      return offer(value);
    }

    @Override
    public T poll() {
      Entry<T> first = entries.poll();
      return first == null ? null : first.value();
    }

    @Override
    public T peek() {
      Entry<T> first = entries.peek();
      return first == null ? null : first.value();
    }

    @Override
    public int size() {
      return entries.size();
    }

    @Override
    public boolean isEmpty() {
      return entries.isEmpty();
    }

    @Override
    public void clear() {
      entries.clear();
    }

    @Override
    public boolean remove(Object value) {
      return entries.removeIf(entry -> entry.value().equals(value));
    }

    @Override
    public Iterator<T> iterator() {
      Iterator<Entry<T>> inner = entries.iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return inner.hasNext();
        }

        @Override
        public T next() {
          return inner.next().value();
        }

        @Override
        public void remove() {
          inner.remove();
        }
      };
    }
  }
}
