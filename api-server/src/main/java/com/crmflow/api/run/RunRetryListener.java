package com.crmflow.api.run;

/**
 * Told when a failed run is retried, inside the transaction that inserts the retry: what it changes
 * commits together with the retry, and an exception it throws refuses the retry (nothing inserted,
 * nothing started).
 */
public interface RunRetryListener {

  void runRetried(AutomationRun failed, AutomationRun retry);
}
