package com.crmflow.api.run;

/**
 * Told when a run ends (completed, failed or cancelled), inside the transaction that records the
 * end, so what it changes commits together with the run's status.
 */
public interface RunEndListener {

  void runEnded(RunRepository.EndedRun run, String status);
}
