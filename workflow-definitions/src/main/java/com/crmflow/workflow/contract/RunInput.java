package com.crmflow.workflow.contract;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * What a run is started with: the pinned canvas version (editing the canvas later never changes a
 * run in flight) and the trigger payload.
 *
 * @param startNodeId where the walk begins: the trigger node, or for a retry the failed node
 * @param priorOutputs for a retry: the outputs of the nodes that ran before the failed one, keyed
 *     as variables ({@code http_request_1}, ...); empty otherwise
 * @param localActivities true when the worker that runs the workflow also hosts the run recorder,
 *     http_request, crm_update and the email node's reads and booking (one process: the embedded
 *     defaults). They then run as local activities inside the workflow task instead of going
 *     through a task queue, which saves the server round trips of each. Fixed for the run's life,
 *     so its history replays the same way on any worker; null (runs started before it existed)
 *     means false.
 * @param inlineChains true: a node's first successor runs on in the same workflow thread instead of
 *     a new one (fewer thread hand-overs per run). Parallel branches then start in a different,
 *     still deterministic order, so the choice is fixed per run; null (older runs) means false.
 * @param triggerLogged true when api-server wrote the start (trigger) node's log entry, seq 1, with
 *     the run row; the workflow then does not record it. Null means false.
 * @param resume for a run whose workflow the server lost: where it stood (see {@link RunResume});
 *     null otherwise (and for every run started before it existed)
 * @param alsoStartAt for a retry: the other nodes the failed run left unrun (a second failed node,
 *     a delay its failure cut short, a node whose turn came after it), which start beside {@code
 *     startNodeId}, none of them after another; null or empty otherwise
 * @param rerunOrdinals for a retry: the ordinal ({@code http_request_2}: 2) that each node it runs
 *     again had in the failed run, so that variables name the same nodes as there; null otherwise
 * @param delaysWakeUp for a retry: when each delay that the failure cut short would have woken
 *     (ISO-8601, as logged); the retry's delay waits until then (not at all if that has passed)
 *     instead of its full length again; null otherwise
 * @param startedWithChanges the interpreter's changes (its {@code Workflow.getVersion} ids) that
 *     the run was started with: it takes their new path without asking, so its history holds no
 *     version marker for them. Fixed for the run's life; null (runs started before it existed) asks
 *     {@code Workflow.getVersion} for each, as they were recorded.
 * @param testRun true for a test run: every node that acts outside the run (sends, calls, posts,
 *     writes) outputs what it would do instead of doing it, and delays and waits do not wait (see
 *     {@code NodeExecutor#wouldDo}). Null (every other run) means false.
 */
public record RunInput(
    String tenantId,
    String sequenceId,
    String runId,
    int canvasVersion,
    Canvas canvas,
    String startNodeId,
    Map<String, Object> triggerPayload,
    Map<String, Object> contact,
    Map<String, Object> priorOutputs,
    List<String> completedNodeIds,
    Boolean localActivities,
    Boolean inlineChains,
    Boolean triggerLogged,
    RunResume resume,
    List<String> alsoStartAt,
    Map<String, Integer> rerunOrdinals,
    Map<String, String> delaysWakeUp,
    List<String> startedWithChanges,
    // left out when null: every other run's input stays the JSON it was
    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean testRun) {

  /** Whether the run is a test run (see {@code testRun}). */
  public boolean runsAsTest() {
    return Boolean.TRUE.equals(testRun);
  }

  /** Whether the run was started with the change's new path (see {@code startedWithChanges}). */
  public boolean startedWith(String changeId) {
    return startedWithChanges != null && startedWithChanges.contains(changeId);
  }

  public boolean runsLocalActivities() {
    return Boolean.TRUE.equals(localActivities);
  }

  public boolean runsInlineChains() {
    return Boolean.TRUE.equals(inlineChains);
  }

  /** Where the walk begins: {@code startNodeId} first, then {@code alsoStartAt}. */
  public List<String> startNodeIds() {
    if (alsoStartAt == null || alsoStartAt.isEmpty()) {
      return List.of(startNodeId);
    }
    List<String> starts = new java.util.ArrayList<>(List.of(startNodeId));
    starts.addAll(alsoStartAt);
    return starts;
  }

  public boolean startLogged() {
    return Boolean.TRUE.equals(triggerLogged);
  }

  /**
   * The node's log entry and wake-up time if it was waiting when the workflow was lost (a delay, a
   * wait_until's deadline, an email waiting for its send window), or null.
   */
  public RunResume.WaitingDelay waitingDelay(CanvasNode node) {
    return resume == null ? null : resume.waiting().get(node.id());
  }

  /**
   * When the node logged that it wakes, or null: its waiting entry's time (a resumed or moved run),
   * else the time a retry's failed run logged for it. A wait that starts with one wakes then, not
   * at a moment computed again.
   */
  public String loggedWakeUp(CanvasNode node) {
    RunResume.WaitingDelay waiting = waitingDelay(node);
    if (waiting != null) {
      return waiting.until();
    }
    return delaysWakeUp == null ? null : delaysWakeUp.get(node.id());
  }

  /** The same input with another canvas (to measure the rest of it on its own). */
  public RunInput withCanvas(Canvas other) {
    return new RunInput(
        tenantId,
        sequenceId,
        runId,
        canvasVersion,
        other,
        startNodeId,
        triggerPayload,
        contact,
        priorOutputs,
        completedNodeIds,
        localActivities,
        inlineChains,
        triggerLogged,
        resume,
        alsoStartAt,
        rerunOrdinals,
        delaysWakeUp,
        startedWithChanges,
        testRun);
  }

  /**
   * The same run in another version of its flow ({@code RunMove}): its canvas and version, and
   * where it stands ({@code resume}: its waiting nodes keep their entry and deadline).
   */
  public RunInput movedTo(int version, Canvas other, RunResume standing) {
    return new RunInput(
        tenantId,
        sequenceId,
        runId,
        version,
        other,
        startNodeId,
        triggerPayload,
        contact,
        priorOutputs,
        completedNodeIds,
        localActivities,
        inlineChains,
        triggerLogged,
        standing,
        alsoStartAt,
        rerunOrdinals,
        delaysWakeUp,
        startedWithChanges,
        testRun);
  }
}
