package com.crmflow.workflow.run;

import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.history.HistoryPayloads;
import com.crmflow.workflow.history.WorkflowTaskBudget;
import com.crmflow.workflow.node.builtin.BuiltInNodes;
import io.temporal.workflow.Workflow;
import java.util.List;
import java.util.stream.Stream;

/**
 * The interpreter's changes (its {@code Workflow.getVersion} ids) and which path a run takes for
 * each: workflow code, one per run. A change is asked with {@link #since} only where the paths
 * differ, so most runs record no marker; a run started with a change ({@link
 * RunInput#startedWithChanges}) records none for it.
 */
public final class InterpreterChanges {

  /**
   * A run with this change buffers its node log entries and writes them in batches ({@link
   * NodeLogRecording}); a run without it records each entry with an activity of its own.
   */
  static final String BATCHED_RECORDING = "batched-recording";

  /**
   * A run with this change runs email, chat_message, crm_update and create_record; a run without it
   * fails at the first of them ("not supported by this version of the engine").
   */
  static final String SIDE_EFFECT_NODES = "side-effect-nodes";

  /**
   * In a run with this change a failure lets the branches settle: nodes in flight finish and are
   * logged as they ended, no new node starts, and each node whose turn comes is logged skipped
   * ({@link RunResult#NOT_STARTED_FOR_FAILURE}), so a retry finds it. In a run without it a failure
   * ends the run at once: a node in flight in another branch (an email, a call) is abandoned with
   * no log entry though it may have acted, and the nodes whose turn comes after the failure are not
   * logged.
   */
  static final String FAILURE_SETTLES_BRANCHES = "failure-settles-branches";

  /**
   * In a run with this change a branch that ends while others go on (a call beside a day's delay)
   * writes its entries as it ends, so the running run shows them; in a run without it they stay in
   * the buffer to the run's end.
   */
  static final String FLUSH_ENDED_BRANCHES = "flush-ended-branches";

  /**
   * In a run with this change that records through the crm queue, batches stay under {@link
   * HistoryPayloads#BATCH_LIMIT_BYTES} and an output over {@link HistoryPayloads#LIMIT_BYTES} is
   * logged as a note of its size. In a run without it a recorder activity carries whatever entries
   * are buffered, whatever their size: on a real server a batch over its 2 MB payload limit fails
   * the workflow task again and again and the run does not move. A run whose entries are small
   * records no marker.
   */
  static final String SIZED_RECORDING = "sized-recording";

  /**
   * In a run with this change a local http_request that finds no room for its answer in its
   * workflow task goes through the integrations queue ({@link WorkflowTaskBudget}). In a run
   * without it a local call starts whatever its task's markers already hold: a chain of large
   * answers takes one task's completion over 4 MB and the server terminates the run.
   */
  static final String ANSWERS_PER_TASK = "answers-per-task";

  /**
   * In a run with this change a node whose activity input is too large for history (an email whose
   * body a template filled with a large answer) fails, saying why ({@link
   * AutomationRunWorkflowImpl#requireFitsInHistory}). In a run without it the node schedules its
   * activity whatever the size: over the server's 2 MB payload limit the workflow task fails on
   * every attempt, and over 4 MB the server terminates the run.
   */
  static final String ACTIVITY_INPUTS_FIT = "activity-inputs-fit";

  /**
   * In a run with this change the recorder's batches through the crm queue count in {@link
   * WorkflowTaskBudget}, and a batch with no room waits for the next task. In a run without it they
   * are scheduled whatever their task already carries: parallel branches that each hand in a large
   * entry when they start waiting take the task over 4 MB and the server terminates the run.
   */
  static final String RECORDINGS_PER_TASK = "recordings-per-task";

  /**
   * In a run with this change an activity input that would take its workflow task over the limit
   * waits for the next task ({@link WorkflowTaskBudget#schedule}). In a run without it a node
   * schedules its activity in the current task whatever the task carries already: three 1.4 MB
   * requests in parallel branches take the task's message over 4 MB and the server terminates the
   * run.
   */
  static final String INPUTS_PER_TASK = "inputs-per-task";

  /**
   * A run with this change sets its search attribute {@code CrmStatus} when it ends; in a run
   * without it {@code CrmStatus} reads "running" for good.
   */
  static final String STATUS_SEARCH_ATTRIBUTE = "status-search-attribute";

  /**
   * A failed run with this change fails its workflow execution once its end is recorded: an {@code
   * ApplicationFailure} of type {@value RunResult#FAILURE_TYPE}, not retryable, whose message names
   * the node and the cause, so the Temporal UI's status and its "Failed" filter say what the
   * service says. A failed run without it completes its workflow with the result {@code failed}.
   * Asked only when a run fails, so a run that completes records no marker.
   */
  static final String FAILED_RUN_FAILS_WORKFLOW = "failed-run-fails-workflow";

  /**
   * In a run with this change each node log entry carries its {@link NodeInput}; in a run without
   * it an entry does not show what the node ran with. Through the crm queue the entries are in
   * history, where the input counts in the sizes that cut batches and workflow tasks, so a run asks
   * this version at its first entry; recorded as local activities they are not, and the input
   * changes nothing a replay sees.
   */
  static final String NODE_INPUT = "node-input";

  /**
   * A node's input ({@link NodeInput}) shows the run's contact as the node started with it; an
   * email's shows the contact the email read afresh. A run without this change shows every node
   * with the contact as it stood when the node's entry was recorded: a node that ran beside an
   * email which read a changed contact is shown with that one. Through the crm queue the inputs are
   * in history, so the run asks this version when the two differ (a node other than an email whose
   * contact changed while it ran); on the embedded defaults they are not, and the run takes this
   * path without asking.
   */
  static final String NODE_INPUT_CONTACT = "node-input-contact";

  /**
   * A run with this change takes the asks of its flow's pause, archive and resume ({@link
   * com.crmflow.workflow.contract.RunControl}): it holds before its next node, goes on when
   * released, and ends cancelled at its next safe point (between nodes, or while it waits in a
   * delay, a send window or a wait_until). A run without it passes them over, as every run did
   * before the signal existed. Asked only when an ask has come, so a run never asked records no
   * marker.
   */
  static final String RUN_CONTROL = "run-control";

  /**
   * A run with this change ends, completed, when its contact meets its flow's goal ({@code
   * Canvas#goal}): at once while it waits (a delay, a send window, a wait_until), and before its
   * next node otherwise; its exit says so ({@code {reason: goal, at_node}}). A run without it never
   * ends for a goal. Asked only by a run whose canvas has a goal or whose contact's change was
   * routed to it, so a run of a flow without a goal records no marker.
   */
  static final String GOAL = "goal";

  /**
   * A run with this change takes a move to another version of its flow ({@link
   * com.crmflow.workflow.contract.RunMove}) at a safe point: its waiting branches stop and go on in
   * the target version, keeping their entries and deadlines. A run without it has no such path.
   * Asked only when a move comes, so a run never moved records no marker.
   */
  static final String RUN_MOVE = "run-move";

  /**
   * A run with this change takes a move while it holds before its next node for its flow's pause
   * ({@value #RUN_CONTROL}): the held branch stops, its held entry goes to the node it goes on at
   * in the target version, and it holds there until released. A run without it refuses the move
   * while it holds. Asked only when a move comes to a held run, so no other run records a marker.
   */
  static final String HELD_MOVE = "held-move";

  /**
   * In a run with this change a wait that moved goes on as it was, through every later move: a
   * later move's {@code recompute_delays} measures from when the wait began (not from the move
   * before), a delay with a send window keeps the deadline it logged, and a run held by its flow's
   * pause goes on waiting in the moved node rather than holding before it (a held entry of its own
   * that nothing ended, and a deadline the next move lost). A run without it takes the path it took
   * before. Asked only where the two differ: at a move of a wait that moved or was resumed before,
   * and when a held run's moved wait goes on.
   */
  static final String MOVED_WAITS_GO_ON = "moved-waits-go-on";

  /**
   * In a run with this change a move during which the run meets its goal (its event taken after the
   * move's check, before the waiting branch stopped for it) does not move the run: the run ends at
   * its goal in its version, and the move answers that it did not move it. A run without it records
   * the move as made, with no node moved, though the run ended. Asked only when the goal ended the
   * run during a move.
   */
  static final String GOAL_ENDS_MOVE = "goal-ends-move";

  /**
   * The interpreter's changes whose path (that of a run with the change) every run started with
   * this code takes: the starter lists them in the run's input ({@link
   * RunInput#startedWithChanges}), so that a run records no version marker for them. A change is
   * asked with {@link #since} and joins this list one release after it ships, once no worker
   * without it runs: a worker that does not know a change takes the path without it and records no
   * marker, and a worker that knows it would replay that history on the path with it if the run's
   * input listed it. While a change is not listed, {@code Workflow.getVersion} records its marker;
   * once it is listed, the SDK passes over a marker that no call asks for.
   */
  public static final List<String> CHANGES =
      Stream.concat(
              Stream.of(
                  BATCHED_RECORDING,
                  SIDE_EFFECT_NODES,
                  FAILURE_SETTLES_BRANCHES,
                  FLUSH_ENDED_BRANCHES,
                  SIZED_RECORDING,
                  ANSWERS_PER_TASK,
                  ACTIVITY_INPUTS_FIT,
                  RECORDINGS_PER_TASK,
                  INPUTS_PER_TASK,
                  STATUS_SEARCH_ATTRIBUTE),
              BuiltInNodes.CHANGES.stream())
          .toList();

  private final RunInput input;

  /** {@value #SIDE_EFFECT_NODES}, once asked (see {@link #sideEffectNodesBuilt}). */
  private Integer sideEffectNodesVersion;

  InterpreterChanges(RunInput input) {
    this.input = input;
    if (input.runsLocalActivities()) {
      // runs with local activities were all started after this change: no version marker needed
      sideEffectNodesVersion = 1;
    }
  }

  /**
   * Whether the run takes the path of version 1 of the change: at once for a run started with it
   * ({@link RunInput#startedWithChanges}), which records no marker; else as {@code
   * Workflow.getVersion} answers, asked only where the path differs, and the SDK answers the same
   * for the rest of the run.
   */
  public boolean since(String changeId) {
    return input.startedWith(changeId)
        || Workflow.getVersion(changeId, Workflow.DEFAULT_VERSION, 1) == 1;
  }

  /**
   * Whether the run takes side-effect nodes ({@value #SIDE_EFFECT_NODES}): asked the first time
   * such a node runs, and remembered.
   */
  boolean sideEffectNodesBuilt() {
    if (sideEffectNodesVersion == null) {
      sideEffectNodesVersion = since(SIDE_EFFECT_NODES) ? 1 : 0;
    }
    return sideEffectNodesVersion == 1;
  }
}
