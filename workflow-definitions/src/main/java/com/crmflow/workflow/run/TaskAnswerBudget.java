package com.crmflow.workflow.run;

import io.temporal.workflow.Promise;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Keeps what the local activities of one workflow task bring back under what a Temporal server
 * accepts (workflow code: one per run, used from its workflow threads).
 *
 * <p>A workflow task is handed in as one gRPC message of at most 4 MB, and the marker of every
 * local activity that ended during the task (its answer, and its request unless left out) travels
 * in it. On the embedded defaults a chain of http_request nodes runs in a single task, so six
 * answers of 900 kB made a 5.4 MB message and the server terminated the run
 * ("GrpcMessageTooLarge"); a real server does the same. So a call first reserves room for the
 * largest answer it can get; when the task has no room left, the call waits until the task has been
 * handed in, which a 1 ms timer ("hand in the workflow task") forces. The answers handed in no
 * longer count. A call that waits costs a timer and a workflow task; calls with small answers never
 * wait.
 */
final class TaskAnswerBudget {

  /** What the markers of one task may carry: 4 MB less room for the task's other commands. */
  static final long TASK_BYTES = 3L * 1024 * 1024;

  /** The most an answer takes: http_request's 1 MiB body cap, its headers, and JSON's escapes. */
  static final long ANSWER_BYTES = 1280L * 1024;

  private final BooleanSupplier versioned;
  private long landed;
  private long inFlight;
  private Promise<Void> handIn;

  /**
   * @param versioned asked the first time a call would wait: false when the run's history was made
   *     before the budget existed (its calls never waited)
   */
  TaskAnswerBudget(BooleanSupplier versioned) {
    this.versioned = versioned;
  }

  /** Reserves room for a call's marker, waiting for the task to be handed in if there is none. */
  void reserve(long bytes) {
    while (landed + inFlight + bytes > TASK_BYTES && versioned.getAsBoolean()) {
      if (handIn == null) {
        handIn =
            Workflow.newTimer(
                    Duration.ofMillis(1),
                    TimerOptions.newBuilder().setSummary("hand in the workflow task").build())
                .thenApply(
                    fired -> {
                      landed = 0;
                      handIn = null;
                      return null;
                    });
      }
      Promise<Void> current = handIn;
      Workflow.await(() -> current.isCompleted() || landed + inFlight + bytes <= TASK_BYTES);
    }
    inFlight += bytes;
  }

  /** The call ended: its reservation gives way to what its marker really carries. */
  void landed(long reserved, long bytes) {
    inFlight -= reserved;
    landed += bytes;
  }
}
