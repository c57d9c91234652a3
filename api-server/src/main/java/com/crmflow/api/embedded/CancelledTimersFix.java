package com.crmflow.api.embedded;

import io.temporal.internal.testservice.TestServicesStarter;
import java.lang.reflect.Field;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Lock;
import java.util.function.Predicate;

/**
 * Works around a memory leak in the Temporal Java test server (temporal-test-server 1.38): its
 * self-advancing timer keeps every task it schedules in a {@code PriorityQueue} ordered by due
 * time, and a cancelled task leaves the queue only when it comes to the head. Every workflow
 * schedules a run timeout as it starts (ten years out when the start sets none, and ours set none:
 * a run waits as long as its canvas says) and a timeout for each of its workflow tasks, and cancels
 * them as they become moot; each task's runnable holds the workflow's whole state. So behind the
 * run timeout of any workflow still open (a run waiting on "wait 3 days", a schedule's workflow),
 * every workflow closed since stayed in the heap for ten years, after {@link
 * ClosedWorkflowRetention} had made the server forget it too; and under a steady load, where some
 * live timer is always due first, even without one, until the load paused.
 *
 * <p>This gives the timer a queue that drops its cancelled tasks whenever it has grown by half
 * since it last did (and by at least {@link #PURGE_AFTER_AT_LEAST} tasks): it never holds more than
 * half again as many tasks as it kept at its last purge, plus that many, and looks at each task
 * about three times on average. The timer only adds, peeks and polls, always under its own lock,
 * and skips a cancelled task that it polls, so dropping one earlier changes nothing it runs. (A
 * workflow task's 10 s timeout is not cancelled when the task completes, only found moot when it
 * fires: it holds its workflow for those 10 s.) If the server's internals change, the fix reports
 * that and leaves the server as it is.
 */
final class CancelledTimersFix {

  /** Tasks added, at the least, between two purges: a small queue is not worth looking through. */
  static final int PURGE_AFTER_AT_LEAST = 1024;

  private CancelledTimersFix() {}

  /** Returns null when applied, otherwise why not. */
  @SuppressWarnings("unchecked") // the timer's queue holds its private TimerTask class
  static String apply(TestServicesStarter starter) {
    try {
      Object timer = TestServerInternals.read(starter, "selfAdvancingTimer");
      Field canceled =
          Class.forName(timer.getClass().getName() + "$TimerTask").getDeclaredField("canceled");
      canceled.setAccessible(true);
      Lock lock = (Lock) TestServerInternals.read(timer, "lock");
      lock.lock(); // the timer's pump thread already runs
      try {
        PriorityQueue<Object> original =
            (PriorityQueue<Object>) TestServerInternals.read(timer, "tasks");
        PurgingQueue<Object> purging =
            new PurgingQueue<>(original.comparator(), task -> isSet(canceled, task));
        purging.addAll(original);
        TestServerInternals.replace(timer, "tasks", purging);
      } finally {
        lock.unlock();
      }
      return null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return e.toString();
    }
  }

  private static boolean isSet(Field flag, Object owner) {
    try {
      return flag.getBoolean(owner);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("the test server's TimerTask changed", e);
    }
  }

  /** A priority queue that drops the elements a predicate names as it grows (see above). */
  static final class PurgingQueue<T> extends PriorityQueue<T> {

    private final Predicate<? super T> cancelled;
    private int purgeAt = PURGE_AFTER_AT_LEAST;

    PurgingQueue(Comparator<? super T> order, Predicate<? super T> cancelled) {
      super(order);
      this.cancelled = cancelled;
    }

    @Override
    public boolean offer(T element) {
      if (size() >= purgeAt) {
        removeIf(cancelled);
        purgeAt = size() + Math.max(size() / 2, PURGE_AFTER_AT_LEAST);
      }
      return super.offer(element);
    }
  }
}
