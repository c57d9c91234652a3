package com.crmflow.api.embedded;

import io.temporal.internal.testservice.TestServicesStarter;
import java.util.LinkedList;

/**
 * Works around a growth bug in the Temporal Java test server (temporal-test-server 1.38): its
 * self-advancing timer appends a diagnostic event to a {@code LinkedList} on every lock and unlock
 * of time skipping, removes only some of them, and scans the list on every unlock. In a long-lived
 * embedded server the list grows with every workflow task, so memory grows and each state change
 * gets slower: under the trigger benchmark a third of all CPU went to {@code LinkedList.remove}.
 *
 * <p>The events only feed the server's diagnostics dump; the lock count that governs time skipping
 * is kept separately. This replaces the list with one that keeps nothing and reports every removal
 * as found. If the server's internals change, the fix reports that and leaves the server as it is.
 */
final class TimeSkippingLogFix {

  private TimeSkippingLogFix() {}

  /** Returns null when applied, otherwise why not. */
  static String apply(TestServicesStarter starter) {
    try {
      Object timer = TestServerInternals.read(starter, "selfAdvancingTimer");
      TestServerInternals.replace(timer, "lockEvents", new DiscardingList<>());
      return null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return e.toString();
    }
  }

  /** Keeps nothing; every removal succeeds, as the timer's lock handles expect. */
  private static final class DiscardingList<E> extends LinkedList<E> {
    @Override
    public boolean add(E element) {
      return true;
    }

    @Override
    public boolean remove(Object element) {
      return true;
    }
  }
}
