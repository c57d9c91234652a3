package com.crmflow.api.run;

import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Ends a running run and tells the {@link RunEndListener}s, in one transaction. */
@Component
class RunEnding {

  private final RunRepository runs;
  private final List<RunEndListener> listeners;

  RunEnding(RunRepository runs, List<RunEndListener> listeners) {
    this.runs = runs;
    this.listeners = listeners;
  }

  /**
   * @return false when the run had ended already (it keeps its status; nobody is told twice)
   */
  @Transactional
  boolean end(UUID runId, String status, String error) {
    if (!runs.finish(runId, status, error)) {
      return false;
    }
    listeners.forEach(listener -> listener.runEnded(runId, status));
    return true;
  }
}
