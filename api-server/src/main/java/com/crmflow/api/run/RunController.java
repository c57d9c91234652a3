package com.crmflow.api.run;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.FlowScopes;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.history.HistoryPayloads;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Run records for operators: list, read (with node_log), cancel, retry from the failed node. */
@RestController
@RequestMapping("/api/v1/automation-runs")
class RunController {

  private static final String EXIT_GOAL = "goal";

  private static final List<String> STATUSES =
      List.of(RunResult.RUNNING, RunResult.COMPLETED, RunResult.FAILED, RunResult.CANCELLED);

  private final RunRepository runs;
  private final RunBeginnings beginnings;
  private final RunCancels cancels;
  private final RetryChains retries;
  private final RunEnding ending;
  private final List<RunRetryListener> retryListeners;
  private final TransactionTemplate transaction;
  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final RunVisibility visibility;

  private final NodeTypes nodeTypes;

  RunController(
      RunRepository runs,
      RunBeginnings beginnings,
      RunCancels cancels,
      RetryChains retries,
      RunEnding ending,
      List<RunRetryListener> retryListeners,
      TransactionTemplate transaction,
      SequenceRepository sequences,
      CanvasRepository canvases,
      RunVisibility visibility,
      NodeTypes nodeTypes) {
    this.nodeTypes = nodeTypes;
    this.visibility = visibility;
    this.sequences = sequences;
    this.canvases = canvases;
    this.ending = ending;
    this.retryListeners = retryListeners;
    this.transaction = transaction;
    this.runs = runs;
    this.beginnings = beginnings;
    this.cancels = cancels;
    this.retries = retries;
  }

  /**
   * {@code {runs, total, limit, offset, nodes_reached}}, newest first; node_log only on the single
   * run. Payloads and outputs show as {@link RunVisibility} says.
   */
  @GetMapping
  @RequiresScope(Scope.AUTOMATION_RUNS_READ)
  RunPage list(
      Caller caller,
      @RequestParam(name = "sequence_id", required = false) UUID sequenceId,
      @RequestParam(required = false) String status,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset,
      @Parameter(description = "true: the test runs only; without it, the runs that are no test")
          @RequestParam(required = false)
          Boolean test,
      @Parameter(
              description =
                  "goal: only the runs that ended because their contact met the flow's goal"
                      + " (exit.reason goal)",
              schema = @Schema(allowableValues = {"goal"}))
          @RequestParam(required = false)
          String exit) {
    boolean tests = Boolean.TRUE.equals(test);
    if (status != null && !STATUSES.contains(status)) {
      throw ApiException.badRequest("status", "must be one of " + STATUSES);
    }
    if (exit != null && !EXIT_GOAL.equals(exit)) {
      throw ApiException.badRequest("exit", "must be goal");
    }
    Paging paging = Paging.of(limit, offset);
    List<AutomationRun> page =
        runs
            .list(
                caller.tenantId(), sequenceId, status, exit, tests, paging.limit(), paging.offset())
            .stream()
            .map(run -> visibility.shownTo(caller, run))
            .toList();
    return new RunPage(
        page,
        runs.count(caller.tenantId(), sequenceId, status, exit, tests),
        paging.limit(),
        paging.offset(),
        runs.nodesReached(caller.tenantId(), page.stream().map(AutomationRun::id).toList()));
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.AUTOMATION_RUNS_READ)
  RunAnswer get(Caller caller, @PathVariable UUID id) {
    AutomationRun run = find(caller, id);
    return new RunAnswer(visibility.shownTo(caller, run.withNodeLog(runs.nodeLog(id))));
  }

  /**
   * Cancels a running run: its workflow is cancelled first (so no later node runs), then the run is
   * marked cancelled. When Temporal cannot be reached nothing changes (503), as for unenroll: a run
   * marked cancelled whose workflow goes on would still make its calls.
   */
  @PostMapping("/{id}/cancel")
  @RequiresScope(Scope.AUTOMATION_RUNS_WRITE)
  RunAnswer cancel(Caller caller, @PathVariable UUID id) {
    AutomationRun run = find(caller, id);
    if (!RunResult.RUNNING.equals(run.status())) {
      throw ApiException.conflict(
          "Run " + id + " is " + run.status() + "; only a running run can be cancelled.");
    }
    boolean workflowCancelled;
    try {
      workflowCancelled = cancels.cancelRunning(id, run.workflowId());
    } catch (RuntimeException unreachable) {
      throw ApiException.workflowEngineUnreachable("run");
    }
    if (workflowCancelled) {
      // the cancelled workflow records its end too; whichever comes first ends the run
      ending.end(id, List.of(), RunResult.CANCELLED, null);
    } else {
      // over already, or not started yet (a start still on its way must not run it): ends the run
      cancels.cancelledBeforeStart(id, run.workflowId());
    }
    return new RunAnswer(
        visibility.shownTo(caller, find(caller, id).withNodeLog(runs.nodeLog(id))));
  }

  /**
   * Retries a failed run from its failed node, and from every other node it left unrun (see {@link
   * RetryStarts}): a new run (retry_of the old one) on the same canvas version and payload, with
   * the outputs of the nodes that completed before. A run is retried once: a second retry would run
   * its failed node again beside the first (retry the retry). The retry of an enrollment's run is
   * that enrollment's run again (same workflow id; see EnrollmentRunRetry). Only while its flow is
   * active (409), and only for a key that holds the scopes the run's canvas version acts with, as
   * activating it does (403 naming the missing ones, {@link FlowScopes}).
   */
  @PostMapping("/{id}/retry")
  @RequiresScope(Scope.AUTOMATION_RUNS_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  RunAnswer retry(Caller caller, @PathVariable UUID id) {
    AutomationRun failed = find(caller, id);
    if (!RunResult.FAILED.equals(failed.status())) {
      throw ApiException.conflict(
          "Run " + id + " is " + failed.status() + "; only a failed run can be retried.");
    }
    if (failed.test()) {
      // its retry would act: a test run is tried again as a new test run
      throw ApiException.conflict(
          "Run " + id + " is a test run; start another test run instead of retrying it.");
    }
    // a retry acts as the flow does: only while the flow is active, and only for a key that could
    // activate it (the scopes its pinned version acts with)
    requireActive(failed, sequences.find(caller.tenantId(), failed.sequenceId()));
    canvases
        .version(caller.tenantId(), failed.sequenceId(), failed.canvasVersion())
        .ifPresent(
            version ->
                FlowScopes.requireHeldBy(
                    caller, version.toCanvas(), "Retrying this run", nodeTypes));
    String failedNode = retries.startNode(failed);
    RunRepository.NewRun next =
        new RunRepository.NewRun(
            UUID.randomUUID(),
            failed.tenantId(),
            failed.sequenceId(),
            failed.canvasVersion(),
            failed.triggerNodeId(),
            failedNode,
            failed.triggerPayload(),
            null,
            failed.id(),
            failed.enrollmentId() == null ? null : failed.workflowId(),
            failed.enrollmentId(),
            // the retry's writes carry the failed run's chain on
            failed.cause());
    AutomationRun retry;
    try {
      retry =
          transaction.execute(
              tx -> {
                // a pause that commits meanwhile wins: checked again under the flow's lock
                requireActive(failed, sequences.lock(caller.tenantId(), failed.sequenceId()));
                runs.lockForRetry(failed.id())
                    .ifPresent(
                        earlier -> {
                          throw ApiException.conflict(
                              "Run "
                                  + id
                                  + " was retried already, by run "
                                  + earlier
                                  + "; retry that run if it failed too.");
                        });
                // started once this commits
                AutomationRun inserted =
                    beginnings
                        .begin(
                            RunBeginnings.Beginning.of(next, RunBeginnings.Start.NOW)
                                .refusedWhenTooLarge())
                        .orElseThrow();
                retryListeners.forEach(listener -> listener.runRetried(failed, inserted));
                return inserted;
              });
    } catch (RunBeginnings.TooLarge tooLarge) {
      throw ApiException.unprocessable(
          "Run "
              + id
              + " cannot be retried: the outputs its retry would carry on, with the trigger"
              + " payload and the canvas, make "
              + tooLarge.bytes()
              + " bytes of JSON, over the "
              + HistoryPayloads.LIMIT_BYTES
              + " bytes a workflow's input may carry in Temporal. Fire the trigger again to run"
              + " it from the start.",
          List.of());
    }
    return new RunAnswer(visibility.shownTo(caller, retry.withNodeLog(List.of())));
  }

  private static void requireActive(AutomationRun failed, Optional<Sequence> flow) {
    String status = flow.map(Sequence::status).orElse("deleted");
    if (!Sequence.ACTIVE.equals(status)) {
      throw ApiException.conflict(
          "Run "
              + failed.id()
              + " cannot be retried: its flow is "
              + status
              + ", and a run is retried only while its flow is active. Activate the flow first.");
    }
  }

  private AutomationRun find(Caller caller, UUID id) {
    return runs.find(caller.tenantId(), id).orElseThrow(() -> ApiException.notFound("Run", id));
  }

  /** {@code {run}}. */
  record RunAnswer(AutomationRun run) {}

  /** {@code {runs, total, limit, offset}}. */
  record RunPage(
      List<AutomationRun> runs,
      long total,
      int limit,
      int offset,
      @Schema(
              description =
                  "for each run listed, by its id: the ids of the nodes it has reached (those with"
                      + " an entry in its node log), from which a run's branch is read")
          Map<UUID, List<String>> nodesReached) {}
}
