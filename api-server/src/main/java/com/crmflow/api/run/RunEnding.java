package com.crmflow.api.run;

import com.crmflow.workflow.run.NodeLogEntry;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Ends a running run and tells the {@link RunEndListener}s, in one transaction. */
@Component
class RunEnding {

  private final RunRepository runs;
  private final List<RunEndListener> listeners;
  private final TriggerAdmission admission;

  RunEnding(RunRepository runs, List<RunEndListener> listeners, TriggerAdmission admission) {
    this.runs = runs;
    this.listeners = listeners;
    this.admission = admission;
  }

  /**
   * @param lastEntries node log entries written with the end (the workflow's last batch)
   * @return false when the run had ended already (it keeps its status; nobody is told twice)
   */
  @Transactional
  boolean end(UUID runId, List<NodeLogEntry> lastEntries, String status, String error) {
    admission.ended(runId);
    Optional<RunRepository.EndedRun> ended = runs.end(runId, lastEntries, status, error);
    ended.ifPresent(run -> listeners.forEach(listener -> listener.runEnded(run, status)));
    return ended.isPresent();
  }
}
