package com.crmflow.workflow.contract;

/**
 * What api-server asks of a run when its flow is paused, archived or resumed, signalled to the run
 * ({@link AutomationRunWorkflow#CONTROL}). The run acts on it at a safe point only: between two
 * nodes, or while it waits in a delay, a send window or a wait_until; a node that acts (a call, an
 * email) finishes first.
 *
 * @param action {@link #HOLD}, {@link #RELEASE} or {@link #END}
 * @param reason why, for the run's record and node log when it ends ({@code flow paused})
 * @param generation the order of the asks: a run takes an ask only when it is newer than the last
 *     it took, so that a hold delivered late cannot undo the release that followed it
 */
public record RunControl(String action, String reason, long generation) {

  /** Finish the node in progress, then hold before the next until released (or ended). */
  public static final String HOLD = "hold";

  /** Go on from where the run holds. */
  public static final String RELEASE = "release";

  /** End at the next safe point, cancelled, with the reason. */
  public static final String END = "end";
}
