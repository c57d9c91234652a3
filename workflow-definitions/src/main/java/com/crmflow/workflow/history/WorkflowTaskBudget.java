package com.crmflow.workflow.history;

import io.temporal.workflow.Promise;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Keeps what one workflow task hands in under what a Temporal server accepts (workflow code: one
 * per run, used from its workflow threads).
 *
 * <p>A workflow task is handed in as one gRPC message of at most 4 MB. It carries the marker of
 * every local activity that ended during the task (its answer, and its request unless left out) and
 * the input of every activity the task schedules; over 4 MB the server terminates the run
 * ("GrpcMessageTooLarge"), the embedded one as a real one. Three ways a run went over:
 *
 * <ul>
 *   <li>On the embedded defaults a chain of http_request nodes runs in a single task: six answers
 *       of 900 kB made 5.4 MB. So a local call first reserves room in the task for the largest
 *       answer it can get ({@link #reserve}). When there is none, the call goes as a normal
 *       activity through the integrations queue instead: its answer comes back as an event of its
 *       own, outside any task's message, and calls in parallel branches still run at the same time.
 *   <li>Parallel branches schedule their activities in the same task: three requests of 1.4 MB made
 *       4.2 MB. So an input that would take its task over waits for the next task ({@link
 *       #schedule}), which a 1 ms timer ("hand in the workflow task") brings when nothing else
 *       would.
 *   <li>Through the crm queue (the {@code distributed} profile) the recorder's batches carry their
 *       entries in their inputs, and parallel branches that start waiting each hand theirs in the
 *       same task: six of 700 kB made 4.9 MB. So they count too ({@link #recordNow}, {@link
 *       #recordWhenRoom}), and answers and inputs see what they took.
 * </ul>
 *
 * A task ends when the run next waits (the history's length then changes); what it carried no
 * longer counts.
 */
public final class WorkflowTaskBudget {

  /**
   * What one task may carry of answers, inputs and recordings: 4 MB less room for its other
   * commands.
   */
  static final long TASK_BYTES = 3L * 1024 * 1024;

  /** The most an answer takes: http_request's 1 MiB body cap, its headers, and JSON's escapes. */
  public static final long ANSWER_BYTES = 1280L * 1024;

  private final BooleanSupplier answersCount;
  private final BooleanSupplier inputsWait;
  private final BooleanSupplier recordingsCount;
  private long task = -1;
  private long carried;
  private long inFlight;
  private long recorded;
  private Promise<Void> handIn;

  /**
   * @param answersCount asked the first time a local call finds no room: false when the run's
   *     history was made before answers were counted (its calls were all local)
   * @param inputsWait asked the first time an input finds no room: false when the run's history was
   *     made before inputs waited
   * @param recordingsCount asked the first time the recorder's batches leave no room: false when
   *     the run's history was made before they counted
   */
  public WorkflowTaskBudget(
      BooleanSupplier answersCount, BooleanSupplier inputsWait, BooleanSupplier recordingsCount) {
    this.answersCount = answersCount;
    this.inputsWait = inputsWait;
    this.recordingsCount = recordingsCount;
  }

  /**
   * Reserves room for a local call's marker in the current task.
   *
   * @return false when there is none: the call is to go through the task queue
   */
  public boolean reserve(long bytes) {
    newTask();
    if (noRoomFor(bytes) && answersCount.getAsBoolean()) {
      return false;
    }
    inFlight += bytes;
    return true;
  }

  /** The local call ended: its reservation gives way to what its marker really carries. */
  public void landed(long reserved, long bytes) {
    newTask();
    inFlight -= reserved;
    carried += bytes;
  }

  /** An activity with an input of this size is to be scheduled: waits for a task with room. */
  public void schedule(long bytes) {
    newTask();
    while (noRoomFor(bytes) && inputsWait.getAsBoolean()) {
      waitForTheNextTask();
    }
    carried += bytes;
  }

  /**
   * A recorder batch with an input of this size is to be scheduled without waiting (the caller is
   * about to wait on something else): counts it when the current task has room.
   *
   * @return false when it has none: the batch is to wait ({@link #recordWhenRoom})
   */
  public boolean recordNow(long bytes) {
    newTask();
    if (!roomWithRecordingsFor(bytes) && recordingsCount.getAsBoolean()) {
      return false;
    }
    recorded += bytes;
    return true;
  }

  /** A recorder batch with an input of this size is to be scheduled: waits for a task with room. */
  public void recordWhenRoom(long bytes) {
    newTask();
    while (!roomWithRecordingsFor(bytes) && recordingsCount.getAsBoolean()) {
      waitForTheNextTask();
    }
    recorded += bytes;
  }

  /**
   * Whether the current task has no room for this much more. The recorder's batches count only
   * since {@code recordingsCount}, which is asked only when they make the difference.
   */
  private boolean noRoomFor(long bytes) {
    return carried + inFlight + bytes > TASK_BYTES
        || recorded > 0 && !roomWithRecordingsFor(bytes) && recordingsCount.getAsBoolean();
  }

  private boolean roomWithRecordingsFor(long bytes) {
    return carried + inFlight + recorded + bytes <= TASK_BYTES;
  }

  /**
   * Blocks until the next workflow task: on a 1 ms timer shared by every branch that waits, each of
   * which looks for room again when it fires.
   */
  private void waitForTheNextTask() {
    if (handIn == null) {
      handIn =
          Workflow.newTimer(
              Duration.ofMillis(1),
              TimerOptions.newBuilder().setSummary("hand in the workflow task").build());
    }
    Promise<Void> current = handIn;
    current.get();
    if (handIn == current) {
      handIn = null;
    }
    newTask();
  }

  /** What handed-in tasks carried stops counting (the length is read at each task's start). */
  private void newTask() {
    long length = Workflow.getInfo().getHistoryLength();
    if (length != task) {
      task = length;
      carried = 0;
      recorded = 0;
    }
  }
}
