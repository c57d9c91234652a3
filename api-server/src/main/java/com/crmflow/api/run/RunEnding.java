package com.crmflow.api.run;

import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Ends a running run and tells the {@link RunEndListener}s, in one transaction. Counts the ends
 * that commit in {@code crm.runs.ended} (tag status). A run that fails or is cancelled may have
 * nodes still running in other branches (a delay waiting): their log entries end skipped.
 */
@Component
class RunEnding {

  private final RunRepository runs;
  private final List<RunEndListener> listeners;
  private final RunProgress admission;
  private final Map<String, Counter> endedByStatus;

  RunEnding(
      RunRepository runs,
      List<RunEndListener> listeners,
      RunProgress admission,
      MeterRegistry meters) {
    this.runs = runs;
    this.listeners = listeners;
    this.admission = admission;
    this.endedByStatus =
        Stream.of(RunResult.COMPLETED, RunResult.FAILED, RunResult.CANCELLED)
            .collect(
                Collectors.toMap(
                    Function.identity(),
                    status ->
                        Counter.builder("crm.runs.ended")
                            .description("Runs that ended, by final status")
                            .tag("status", status)
                            .register(meters)));
  }

  /**
   * Nodes still running (a delay in another branch) end skipped.
   *
   * @param lastEntries node log entries written with the end (the workflow's last batch)
   * @return false when the run had ended already (it keeps its status; nobody is told twice)
   */
  @Transactional
  boolean end(UUID runId, List<NodeLogEntry> lastEntries, String status, String error) {
    return end(runId, lastEntries, status, error, null, false);
  }

  /**
   * Ends the run as {@link #end(UUID, List, String, String)} does, with why a completed run ended
   * before its last node.
   *
   * @param exit {reason: goal, at_node}, or null
   */
  @Transactional
  boolean end(
      UUID runId,
      List<NodeLogEntry> lastEntries,
      String status,
      String error,
      Map<String, Object> exit) {
    return end(runId, lastEntries, status, error, exit, false);
  }

  /**
   * Ends a run whose workflow was stopped in Temporal without its record (see {@link
   * RunsClosedElsewhere}): when it failed, the nodes still running are the ones the workflow was
   * stopped in, and fail with the error, so that a retry starts at them.
   *
   * @return false when the run had ended already
   */
  @Transactional
  boolean endStopped(UUID runId, String status, String error) {
    return end(runId, List.of(), status, error, null, true);
  }

  private boolean end(
      UUID runId,
      List<NodeLogEntry> lastEntries,
      String status,
      String error,
      Map<String, Object> exit,
      boolean unfinishedFailWithTheRun) {
    admission.ended(runId);
    Optional<RunRepository.EndedRun> ended = runs.end(runId, lastEntries, status, error, exit);
    if (ended.isPresent() && RunResult.FAILED.equals(status) && unfinishedFailWithTheRun) {
      runs.endUnfinishedNodes(runId, RunResult.FAILED, error);
    } else if (ended.isPresent() && !RunResult.COMPLETED.equals(status)) {
      runs.endUnfinishedNodes(
          runId,
          RunResult.SKIPPED,
          RunResult.CANCELLED.equals(status)
              ? "the run was cancelled before this node finished"
              : RunResult.CUT_BY_FAILURE);
    }
    ended.ifPresent(run -> listeners.forEach(listener -> listener.runEnded(run, status)));
    Counter counter = endedByStatus.get(status);
    if (ended.isPresent() && counter != null) {
      TransactionSynchronizationManager.registerSynchronization(
          new TransactionSynchronization() {
            @Override
            public void afterCommit() {
              counter.increment();
            }
          });
    }
    return ended.isPresent();
  }
}
