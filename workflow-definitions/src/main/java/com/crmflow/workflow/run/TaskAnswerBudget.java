package com.crmflow.workflow.run;

import io.temporal.workflow.Workflow;
import java.util.function.BooleanSupplier;

/**
 * Keeps what the local activities of one workflow task bring back under what a Temporal server
 * accepts (workflow code: one per run, used from its workflow threads).
 *
 * <p>A workflow task is handed in as one gRPC message of at most 4 MB, and the marker of every
 * local activity that ended during the task (its answer, and its request unless left out) travels
 * in it. On the embedded defaults a chain of http_request nodes runs in a single task, so six
 * answers of 900 kB made a 5.4 MB message and the server terminated the run
 * ("GrpcMessageTooLarge"); a real server does the same. So a call first reserves room in the task
 * for the largest answer it can get. When there is none, the call goes as a normal activity through
 * the integrations queue instead: its answer comes back as an event of its own, outside any task's
 * message, and calls in parallel branches still run at the same time. A task ends when the run next
 * waits (the history's length then changes), and its answers no longer count.
 */
final class TaskAnswerBudget {

  /** What the markers of one task may carry: 4 MB less room for the task's other commands. */
  static final long TASK_BYTES = 3L * 1024 * 1024;

  /** The most an answer takes: http_request's 1 MiB body cap, its headers, and JSON's escapes. */
  static final long ANSWER_BYTES = 1280L * 1024;

  private final BooleanSupplier versioned;
  private long task = -1;
  private long landed;
  private long inFlight;

  /**
   * @param versioned asked the first time a call finds no room: false when the run's history was
   *     made before the budget existed (its calls were all local)
   */
  TaskAnswerBudget(BooleanSupplier versioned) {
    this.versioned = versioned;
  }

  /**
   * Reserves room for a call's marker in the current task.
   *
   * @return false when there is none: the call is to go through the task queue
   */
  boolean reserve(long bytes) {
    newTask();
    if (landed + inFlight + bytes > TASK_BYTES && versioned.getAsBoolean()) {
      return false;
    }
    inFlight += bytes;
    return true;
  }

  /** The call ended: its reservation gives way to what its marker really carries. */
  void landed(long reserved, long bytes) {
    newTask();
    inFlight -= reserved;
    landed += bytes;
  }

  /** The answers of tasks handed in no longer count (the length is read at each task's start). */
  private void newTask() {
    long length = Workflow.getInfo().getHistoryLength();
    if (length != task) {
      task = length;
      landed = 0;
    }
  }
}
