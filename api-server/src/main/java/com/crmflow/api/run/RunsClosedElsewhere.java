package com.crmflow.api.run;

import com.crmflow.api.temporal.MirroredRecords;
import com.crmflow.workflow.contract.RunResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Runs, for the {@link com.crmflow.api.temporal.ClosedWorkflowSweep}: a run whose workflow was
 * terminated, timed out or failed in Temporal ends {@code failed} with how (the node entries still
 * running fail with it, so a retry starts at the node the workflow was stopped in); one whose
 * workflow was cancelled without its record ends {@code cancelled}. Counted in {@code
 * crm.runs.closed.elsewhere}.
 */
@Component
class RunsClosedElsewhere implements MirroredRecords {

  private final RunRepository runs;
  private final RunEnding ending;
  private final Counter ended;

  RunsClosedElsewhere(RunRepository runs, RunEnding ending, MeterRegistry meters) {
    this.runs = runs;
    this.ending = ending;
    this.ended =
        Counter.builder("crm.runs.closed.elsewhere")
            .description(
                "Runs ended because their workflow was closed outside the run's own recording"
                    + " (terminated or timed out in Temporal)")
            .register(meters);
  }

  @Override
  public String kind() {
    return "run";
  }

  @Override
  public List<Open> openAfter(UUID afterId, Duration minimumAge, int limit) {
    return runs.runningStartedAfter(afterId, (int) minimumAge.toSeconds(), limit).stream()
        .map(run -> new Open(run.id(), run.workflowId(), run.id().toString()))
        .toList();
  }

  @Override
  public Optional<Open> openFor(String workflowId, String runIdMemo, Duration minimumAge) {
    UUID runId = runIdOf(workflowId, runIdMemo);
    if (runId == null) {
      return Optional.empty();
    }
    return runs.runningStarted(runId, (int) minimumAge.toSeconds())
        .filter(run -> run.workflowId().equals(workflowId))
        .map(run -> new Open(run.id(), run.workflowId(), run.id().toString()));
  }

  /** A run's id: its workflow's memo names it (every run's does); else {@code run-<id>}. */
  private static UUID runIdOf(String workflowId, String runIdMemo) {
    String id =
        runIdMemo != null
            ? runIdMemo
            : workflowId.startsWith("run-") ? workflowId.substring("run-".length()) : null;
    try {
      return id == null ? null : UUID.fromString(id);
    } catch (IllegalArgumentException notARun) {
      return null;
    }
  }

  @Override
  public boolean endClosed(Open run, ClosedExecution closed) {
    boolean endedHere =
        closed.cancelled()
            ? ending.endStopped(run.id(), RunResult.CANCELLED, null)
            : ending.endStopped(run.id(), RunResult.FAILED, closed.description());
    if (endedHere) {
      ended.increment();
    }
    return endedHere;
  }
}
