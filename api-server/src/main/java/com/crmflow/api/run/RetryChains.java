package com.crmflow.api.run;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import com.crmflow.workflow.rules.CanvasRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Retry chains: a retry of a failed run starts at the nodes the failure left unrun ({@link
 * RetryStarts}) and carries on what the runs before it produced, read from the node logs of the
 * retried run and of the runs it retries in turn.
 */
@Component
class RetryChains {

  private final RunRepository runs;
  private final RunInputs inputs;

  RetryChains(RunRepository runs, RunInputs inputs) {
    this.runs = runs;
    this.inputs = inputs;
  }

  /** What a retry carries on from the runs it retries (see the fields of {@link RunInput}). */
  record RetryContext(
      Map<String, Object> priorOutputs,
      List<String> completedNodeIds,
      List<String> alsoStartAt,
      Map<String, Integer> rerunOrdinals,
      Map<String, String> delaysWakeUp,
      RunResume passedOver) {

    /** A run that retries none. */
    static final RetryContext NONE =
        new RetryContext(Map.of(), List.of(), List.of(), null, null, null);

    /**
     * The retried run's logged nodes to pass over, with the retry's own log (where its workflow
     * stood, if the server lost it) on top; {@code own} alone when none are passed over.
     */
    RunResume resumeWith(RunResume own) {
      if (passedOver == null) {
        return own;
      }
      Map<String, RunResume.NodeOutcome> done = new HashMap<>(passedOver.done());
      if (own == null) {
        return new RunResume(done, Map.of(), 0);
      }
      done.putAll(own.done());
      return new RunResume(done, own.waiting(), own.lastSeq());
    }
  }

  /**
   * The {@code start_node_id} of a retry of the failed run: its failed node (see {@link
   * RetryStarts}); for a run stopped in Temporal, where the run started (see {@link #contextOf}).
   */
  String startNode(AutomationRun failed) {
    List<String> unrun =
        RetryStarts.of(inputs.canvasOf(failed), runs.loggedNodes(failed.id()), failed.error());
    return RetryStarts.failedAtANode(unrun, failed.error()) ? unrun.get(0) : failed.startNodeId();
  }

  /**
   * What the run carries on: for a retry, the variables the nodes before its start nodes produced,
   * rebuilt in execution order from the node logs of the retried run and of the runs it retries in
   * turn (a retry's log starts at the nodes it ran again, so the earlier outputs are in the logs
   * before it). A node is numbered where it first ran in the chain ({@code http_request_2}), as the
   * interpreter numbers it; a node run again keeps its number, and one that never started (its turn
   * came after a failure) has none yet. {@link RetryContext#NONE} for a run that retries none.
   */
  RetryContext contextOf(Canvas canvas, AutomationRun retry) {
    if (retry.retryOf() == null) {
      return RetryContext.NONE;
    }
    List<AutomationRun> chain = new ArrayList<>(); // the first run first
    for (UUID id = retry.retryOf(); id != null; ) {
      AutomationRun earlier = runs.findAnyTenant(id).orElseThrow();
      chain.add(0, earlier);
      id = earlier.retryOf();
    }
    Map<String, Object> prior = new HashMap<>();
    List<String> completed = new ArrayList<>();
    Map<String, Integer> ordinalOf = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    List<String> starts = List.of();
    Map<String, String> delaysWakeUp = Map.of();
    RunResume passedOver = null;
    for (AutomationRun earlier : chain) {
      List<NodeLogEntry> log = runs.loggedNodes(earlier.id());
      List<String> unrun = RetryStarts.of(canvas, log, earlier.error());
      List<String> ranAgain = new ArrayList<>(unrun);
      if (earlier.id().equals(retry.retryOf())
          && !RetryStarts.failedAtANode(unrun, earlier.error())) {
        // stopped in Temporal (terminated, timed out): a call in flight then has no entry, so the
        // retry walks again from where the run started, passes over the nodes it logged as
        // finished (as a resumed run does) and runs the others
        starts = List.of(retry.startNodeId());
        passedOver = whereItStood(log, unrun);
        log.forEach(entry -> ranAgain.add(entry.nodeId()));
      } else if (earlier.id().equals(retry.retryOf())) {
        ranAgain.remove(retry.startNodeId());
        ranAgain.add(0, retry.startNodeId());
        starts = List.copyOf(ranAgain);
        delaysWakeUp = wakeUps(log, starts);
      }
      for (NodeLogEntry entry : log) {
        if (entry.output() != null
            && RunResult.NOT_STARTED_FOR_FAILURE.equals(entry.output().get("skipped"))) {
          continue;
        }
        int ordinal =
            ordinalOf.computeIfAbsent(
                entry.nodeId(), node -> counts.merge(entry.nodeType(), 1, Integer::sum));
        if (ranAgain.contains(entry.nodeId())) {
          continue;
        }
        prior.put(
            entry.nodeType() + "_" + ordinal,
            RunResult.FAILED.equals(entry.status())
                ? Map.of("error", String.valueOf(entry.error()))
                : entry.output() == null ? Map.of() : entry.output());
        completed.add(entry.nodeId());
      }
    }
    // carried in the workflow's input, which Temporal takes only up to 2 MB: outputs no node reads
    // travel empty, keeping their names so that later nodes are numbered as before
    Set<String> read = CanvasRules.variablesRead(canvas);
    prior.replaceAll((variable, output) -> read.contains(variable) ? output : Map.of());
    Map<String, Integer> rerunOrdinals = new HashMap<>();
    starts.stream()
        .filter(ordinalOf::containsKey)
        .forEach(node -> rerunOrdinals.put(node, ordinalOf.get(node)));
    return new RetryContext(
        prior,
        completed,
        starts.subList(1, starts.size()),
        rerunOrdinals,
        delaysWakeUp,
        passedOver);
  }

  /** The log as a {@link RunResume}, leaving out the nodes to run again. */
  private static RunResume whereItStood(List<NodeLogEntry> log, List<String> runAgain) {
    return RunInputs.whereItStood(
        log.stream().filter(entry -> !runAgain.contains(entry.nodeId())).toList());
  }

  /**
   * When each delay among the retry's start nodes would have woken in the failed run: the {@code
   * until} that its entry, cut short by the failure, keeps.
   */
  private static Map<String, String> wakeUps(List<NodeLogEntry> log, List<String> starts) {
    Map<String, String> wakeUps = new HashMap<>();
    for (NodeLogEntry entry : log) {
      if (starts.contains(entry.nodeId())
          && entry.output() != null
          && entry.output().get("until") instanceof String until) {
        wakeUps.put(entry.nodeId(), until);
      }
    }
    return wakeUps;
  }
}
