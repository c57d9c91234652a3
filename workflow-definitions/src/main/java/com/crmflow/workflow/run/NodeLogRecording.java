package com.crmflow.workflow.run;

import static com.crmflow.workflow.run.InterpreterChanges.BATCHED_RECORDING;
import static com.crmflow.workflow.run.InterpreterChanges.FLUSH_ENDED_BRANCHES;
import static com.crmflow.workflow.run.InterpreterChanges.NODE_INPUT;
import static com.crmflow.workflow.run.InterpreterChanges.SIZED_RECORDING;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunMoveResult;
import com.crmflow.workflow.contract.RunRecorderActivities;
import com.crmflow.workflow.history.HistoryPayloads;
import com.crmflow.workflow.history.WorkflowTaskBudget;
import com.crmflow.workflow.node.NodeActivities;
import io.temporal.activity.ActivityOptions;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's node log on its way to the recorder ({@link RunRecorderActivities}): workflow code, one
 * per run, used from its workflow threads.
 *
 * <p>The log is buffered and written in batches, in parallel with whatever the run waits on next (a
 * timer or an activity), and the last batch travels with the end of the run. A run that waits
 * therefore shows its partial log, while a short run costs two recording activities instead of one
 * per node. A run whose history has no {@value InterpreterChanges#BATCHED_RECORDING} marker records
 * each entry on its own.
 *
 * <p>Through the crm queue the entries travel in the activities' inputs, so batches are cut to the
 * server's payload limit and counted in the workflow task's budget ({@link HistoryPayloads}, {@link
 * WorkflowTaskBudget}); as local activities (see {@link RunInput#localActivities}) they do not.
 */
final class NodeLogRecording {

  private static final ActivityOptions RECORDING =
      ActivityOptions.newBuilder()
          .setTaskQueue(TaskQueues.CRM)
          .setStartToCloseTimeout(Duration.ofSeconds(10))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofMillis(200))
                  .setMaximumInterval(Duration.ofSeconds(30))
                  .build())
          .build();

  /**
   * Recording in the worker's own process (see {@link RunInput#localActivities}), tried again until
   * it succeeds as {@link #RECORDING} is: a run's end that meets a deadlock or a lost connection
   * waits for the database rather than failing the run. A wait of more than 10 s between attempts
   * is a durable timer, so that a long outage does not keep a workflow task (and its slot) open:
   * the first attempts, 0.2 s to 6.4 s apart, run within the task; each one after that adds a
   * marker, a timer and a workflow task to the run's history, about every 30 s.
   */
  private static final LocalActivityOptions LOCAL_RECORDING =
      LocalActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(10))
          .setRetryOptions(NodeActivities.localRetries(RECORDING.getRetryOptions()))
          .setLocalRetryThreshold(Duration.ofSeconds(10))
          // the entries are in PostgreSQL: copying them into history too only doubled its size
          // and could take a marker over the server's payload limit
          .setDoNotIncludeArgumentsIntoMarker(true)
          .build();

  private final RunInput input;
  private final InterpreterChanges changes;
  private final WorkflowTaskBudget taskBudget;
  private final RunRecorderActivities recorder;
  private final boolean batched;

  /** The span id of the workflow task running this execution (see {@link #record}). */
  private final String taskSpan;

  /** By node id, the span ids of the activities that did nodes' work ({@link #activitySpan}). */
  private final Map<String, String> activitySpans = new HashMap<>();

  /** Whether entries carry their input ({@value InterpreterChanges#NODE_INPUT}); asked once. */
  private Boolean logsInput;

  private final List<NodeLogEntry> pending = new ArrayList<>();
  private final List<Flush> flushes = new ArrayList<>();

  /** A batch of log entries on its way to the recorder. */
  private record Flush(List<NodeLogEntry> entries, Promise<Void> written) {}

  /**
   * @param taskSpan the span id of the workflow task the run started in, or null outside a trace
   */
  NodeLogRecording(
      RunInput input, InterpreterChanges changes, WorkflowTaskBudget taskBudget, String taskSpan) {
    this.input = input;
    this.changes = changes;
    this.taskBudget = taskBudget;
    this.taskSpan = taskSpan;
    this.recorder =
        input.runsLocalActivities()
            ? Workflow.newLocalActivityStub(RunRecorderActivities.class, LOCAL_RECORDING)
            : Workflow.newActivityStub(RunRecorderActivities.class, RECORDING);
    // runs with local activities were all started after both changes: no version marker needed
    this.batched = input.runsLocalActivities() || changes.since(BATCHED_RECORDING);
  }

  void record(NodeLogEntry ran) {
    record(ran, null);
  }

  /**
   * Whether entries carry what their node ran with ({@value InterpreterChanges#NODE_INPUT}): asked
   * at the first entry that has an input, and remembered.
   */
  boolean logsInput() {
    if (logsInput == null) {
      logsInput = !recordsThroughHistory() || changes.since(NODE_INPUT);
    }
    return logsInput;
  }

  /**
   * Records the entry with what the node ran with (null: nothing, see {@link #logsInput}), under
   * the span of the activity that did the node's work, else the workflow task's.
   */
  void record(NodeLogEntry ran, Map<String, Object> ranWith) {
    // sizes are counted without the span id (HistoryPayloads.entryBytes): a run under way when
    // entries began to carry it decides the same on replay
    String span = activitySpans.getOrDefault(ran.nodeId(), taskSpan);
    NodeLogEntry spanned = span == null ? ran : ran.withSpanId(span);
    NodeLogEntry entry = ranWith != null ? spanned.withInput(ranWith) : spanned;
    NodeLogEntry recorded =
        recordsThroughHistory()
                && HistoryPayloads.overLimit(entry)
                && changes.since(SIZED_RECORDING)
            ? HistoryPayloads.withoutOutput(entry)
            : entry;
    if (batched) {
      pending.add(recorded);
    } else {
      recorder.recordNode(input.runId(), recorded);
    }
  }

  /** The span of the activity that did the node's work, for the node's next entries. */
  void activitySpan(String nodeId, String spanId) {
    if (spanId != null) {
      activitySpans.put(nodeId, spanId);
    }
  }

  /** Starts writing the buffered entries without waiting: called just before the run waits. */
  void flush() {
    if (batched && !pending.isEmpty()) {
      List<NodeLogEntry> entries = List.copyOf(pending);
      pending.clear();
      List<List<NodeLogEntry>> batches = sizedBatches(entries);
      Promise<Void> written =
          batches.size() == 1
                  && (!recordsThroughHistory()
                      || taskBudget.recordNow(HistoryPayloads.entryBytes(entries)))
              ? Async.procedure(recorder::recordNodes, input.runId(), entries)
              // one after the other, each in a task with room for it, so that no workflow task
              // carries them all at once
              : Async.procedure(
                  () ->
                      batches.forEach(
                          batch -> {
                            waitForRoomToRecord(batch);
                            recorder.recordNodes(input.runId(), batch);
                          }));
      flushes.add(new Flush(entries, written));
    }
  }

  /**
   * A branch ended: while others go on ({@code stillActive} > 0), its entries are written at once,
   * not with the run's end ({@value InterpreterChanges#FLUSH_ENDED_BRANCHES}).
   */
  void branchEnded(int stillActive) {
    if (batched && stillActive > 0 && !pending.isEmpty() && changes.since(FLUSH_ENDED_BRANCHES)) {
      flush();
    }
  }

  /**
   * The recorder's activities carry their entries in history when they go through the crm queue; as
   * local activities they do not (see {@link #LOCAL_RECORDING}).
   */
  boolean recordsThroughHistory() {
    return !input.runsLocalActivities();
  }

  /**
   * Through the crm queue, waits until the current workflow task has room for the batch ({@value
   * InterpreterChanges#RECORDINGS_PER_TASK}).
   */
  private void waitForRoomToRecord(List<NodeLogEntry> batch) {
    if (recordsThroughHistory()) {
      taskBudget.recordWhenRoom(HistoryPayloads.entryBytes(batch));
    }
  }

  /**
   * The entries as one batch, or cut to the server's payload limit ({@value
   * InterpreterChanges#SIZED_RECORDING}).
   */
  private List<List<NodeLogEntry>> sizedBatches(List<NodeLogEntry> entries) {
    if (!recordsThroughHistory()) {
      return List.of(entries);
    }
    List<List<NodeLogEntry>> batches = HistoryPayloads.batches(entries);
    return batches.size() > 1 && changes.since(SIZED_RECORDING) ? batches : List.of(entries);
  }

  /**
   * Writes what is left of the log and the run's end. A batch still on its way is waited for, so
   * the run never ends before its log.
   */
  void end(String status, String error, Map<String, Object> exit) {
    if (!batched) {
      recorder.finishRun(input.runId(), status, error);
      return;
    }
    // A batch that did not arrive (its activity was cancelled with the run) travels again with
    // the end.
    List<NodeLogEntry> last = new ArrayList<>();
    for (Flush flush : flushes) {
      try {
        flush.written().get();
      } catch (ActivityFailure | CanceledFailure notWritten) {
        last.addAll(flush.entries());
      }
    }
    last.addAll(pending);
    pending.clear();
    List<List<NodeLogEntry>> batches = sizedBatches(last);
    for (List<NodeLogEntry> batch : batches.subList(0, batches.size() - 1)) {
      waitForRoomToRecord(batch);
      recorder.recordNodes(input.runId(), batch);
    }
    List<NodeLogEntry> lastBatch = batches.get(batches.size() - 1);
    waitForRoomToRecord(lastBatch);
    recorder.endRun(input.runId(), lastBatch, status, error, exit);
  }

  /**
   * Writes the move ({@link RunRecorderActivities#recordMove}) with the entries still buffered and
   * the one that says the run moved, once the batches on their way have arrived: the entries of the
   * version left are written before the run record names the target.
   */
  void moved(NodeLogEntry movedEntry, RunMoveResult moved) {
    List<NodeLogEntry> entries = new ArrayList<>();
    for (Flush flush : flushes) {
      try {
        flush.written().get();
      } catch (ActivityFailure | CanceledFailure notWritten) {
        entries.addAll(flush.entries());
      }
    }
    flushes.clear();
    entries.addAll(pending);
    pending.clear();
    entries.add(movedEntry);
    recorder.recordMove(input.runId(), entries, moved);
  }
}
