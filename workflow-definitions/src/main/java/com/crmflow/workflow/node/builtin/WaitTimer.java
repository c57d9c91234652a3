package com.crmflow.workflow.node.builtin;

import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A wait's durable timer, in a cancellation scope of its own that a move, an end or the event a
 * wait_until waits for cancels ({@link #scope}).
 */
record WaitTimer(CancellationScope scope, Promise<Void> timer) {

  /**
   * Starts the timer. A cancelled timer fails with a {@code CanceledFailure} that nothing reads:
   * the branch throws or goes on without it. Its failure is marked read here, or the SDK would log
   * a warning with a stack trace for every wait a run leaves early; {@code timer().get()} still
   * throws it.
   */
  static WaitTimer start(Duration left, String summary) {
    List<Promise<Void>> started = new ArrayList<>(1);
    CancellationScope scope =
        Workflow.newCancellationScope(
            () ->
                started.add(
                    Workflow.newTimer(
                        left, TimerOptions.newBuilder().setSummary(summary).build())));
    scope.run();
    Promise<Void> timer = started.get(0);
    timer.exceptionally(cancelled -> null);
    return new WaitTimer(scope, timer);
  }
}
