package com.crmflow.workflow.run;

import com.crmflow.workflow.contract.RunResult;
import io.temporal.client.WorkflowFailedException;
import io.temporal.failure.ApplicationFailure;

/**
 * How a run ended, as its workflow execution tells: the result of a run that completed, and for a
 * failed run (whose execution fails with an {@link ApplicationFailure} of type {@value
 * RunResult#FAILURE_TYPE}, not retryable) a {@code failed} result with the failure's message.
 * Anything else a workflow fails with is thrown on.
 */
final class RunOutcomes {

  private RunOutcomes() {}

  /** What waits for a run's end. */
  interface Ending {
    RunResult get() throws Exception;
  }

  static RunResult of(Ending run) {
    try {
      return run.get();
    } catch (WorkflowFailedException failed) {
      if (failed.getCause() instanceof ApplicationFailure failure
          && RunResult.FAILURE_TYPE.equals(failure.getType())
          && failure.isNonRetryable()) {
        return new RunResult(RunResult.FAILED, failure.getOriginalMessage());
      }
      throw failed;
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("the run did not end", e);
    }
  }
}
