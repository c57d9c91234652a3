package com.crmflow.api.run;

import java.util.UUID;

/**
 * Room for work on runs that no caller waits for (a move's update of a waiting run), taken from
 * what new runs leave: the trigger's admission decides, and counts the work against its tenant's
 * share while it is under way. The run move package does not need to know who decides.
 */
public interface BackgroundRunWork {

  /**
   * Starts one piece of work of the tenant on the run if new runs leave room for it now (counted
   * until {@link #finished}); false when it should wait and ask again.
   */
  boolean tryStart(UUID tenantId, UUID runId);

  /** The work on the run started by {@link #tryStart} is over (done or failed). */
  void finished(UUID runId);
}
