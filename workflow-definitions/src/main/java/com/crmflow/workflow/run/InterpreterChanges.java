package com.crmflow.workflow.run;

import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.history.HistoryPayloads;
import com.crmflow.workflow.history.WorkflowTaskBudget;
import com.crmflow.workflow.node.NodeExecutors;
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
   * Before this version each node log entry was recorded by an activity of its own; since, they are
   * buffered and written in batches ({@link NodeLogRecording}).
   */
  static final String BATCHED_RECORDING = "batched-recording";

  /** Before this version email, chat_message, crm_update and create_record failed the run. */
  static final String SIDE_EFFECT_NODES = "side-effect-nodes";

  /**
   * Before this version a failure ended the run at once: a node in flight in another branch (an
   * email, a call) was abandoned with no log entry though it may have acted, and the nodes whose
   * turn came after the failure were not logged at all, so a retry could not find them. Now the
   * branches settle first: nodes in flight finish and are logged as they ended, no new node starts,
   * and each node whose turn comes is logged skipped ({@link RunResult#NOT_STARTED_FOR_FAILURE}).
   */
  static final String FAILURE_SETTLES_BRANCHES = "failure-settles-branches";

  /**
   * Before this version the entries of a branch that ended while another branch waited (a call
   * beside a day's delay) stayed in the buffer until the run ended: a running run did not show
   * them. Now a branch that ends while others go on writes them.
   */
  static final String FLUSH_ENDED_BRANCHES = "flush-ended-branches";

  /**
   * Before this version a recorder activity carried whatever entries were buffered, whatever their
   * size: on a real server, a batch over its 2 MB payload limit failed the workflow task again and
   * again and the run never moved. Now (recording through the crm queue) batches stay under {@link
   * HistoryPayloads#BATCH_LIMIT_BYTES} and an output over {@link HistoryPayloads#LIMIT_BYTES} is
   * logged as a note of its size. A run whose entries are small records no marker.
   */
  static final String SIZED_RECORDING = "sized-recording";

  /**
   * Before this version a local http_request started whatever its task's markers already held: a
   * chain of large answers took one task's completion over 4 MB and the server terminated the run.
   * Now a call that finds no room in its task goes through the integrations queue ({@link
   * WorkflowTaskBudget}).
   */
  static final String ANSWERS_PER_TASK = "answers-per-task";

  /**
   * Before this version a node scheduled its activity whatever the size of its input (an email
   * whose body a template filled with a large answer): over the server's 2 MB payload limit the
   * workflow task failed on every attempt, and over 4 MB the server terminated the run. Now such a
   * node fails, saying why ({@link AutomationRunWorkflowImpl#requireFitsInHistory}).
   */
  static final String ACTIVITY_INPUTS_FIT = "activity-inputs-fit";

  /**
   * Before this version the recorder's batches through the crm queue were scheduled whatever their
   * task already carried: parallel branches that each hand in a large entry when they start waiting
   * took the task over 4 MB and the server terminated the run. Now they count in {@link
   * WorkflowTaskBudget}, and a batch with no room waits for the next task.
   */
  static final String RECORDINGS_PER_TASK = "recordings-per-task";

  /**
   * Before this version a node scheduled its activity in the current workflow task whatever the
   * task carried already: three 1.4 MB requests in parallel branches took the task's message over 4
   * MB and the server terminated the run. Now an input that would take its task over waits for the
   * next task ({@link WorkflowTaskBudget#schedule}).
   */
  static final String INPUTS_PER_TASK = "inputs-per-task";

  /**
   * Before this version a run's end did not show in its search attribute {@code CrmStatus}, which
   * read "running" for good.
   */
  static final String STATUS_SEARCH_ATTRIBUTE = "status-search-attribute";

  /**
   * Before this version a node's log entry did not show what it ran with. Now each entry carries
   * its {@link NodeInput}. Through the crm queue the entries are in history, where the input counts
   * in the sizes that cut batches and workflow tasks, so a run asks this version at its first
   * entry; recorded as local activities they are not, and the input changes nothing a replay sees.
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
   * The interpreter's changes whose new path every run started with this code takes: the starter
   * lists them in the run's input ({@link RunInput#startedWithChanges}), so that a run records no
   * version marker for them. A new change is asked with {@link #since} and joins this list one
   * release later, once no worker without it runs: a worker that does not know a change takes the
   * old path without a marker, and a worker that knows it would replay that history on the new path
   * if the run's input listed it. Until then {@code Workflow.getVersion} records the marker, and
   * the SDK passes over a marker that no call asks for once the change is listed.
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
              NodeExecutors.CHANGES.stream())
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
