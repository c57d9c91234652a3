package com.crmflow.workflow.contract;

import com.crmflow.workflow.action.RecordEvent;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** One run of a flow: interprets the pinned canvas. Workflow id {@code run-<runId>}. */
@WorkflowInterface
public interface AutomationRunWorkflow {

  /** The signal that routes a CRM event to a node that watches its record. */
  String RECORD_EVENT = "record_event";

  /** The signal that holds, releases or ends a run whose flow was paused or archived. */
  String CONTROL = "run_control";

  /** The update that moves a waiting run to another version of its flow ({@link RunMove}). */
  String MOVE = "move";

  static String workflowId(String runId) {
    return "run-" + runId;
  }

  @WorkflowMethod
  RunResult run(RunInput input);

  /**
   * A CRM event about a record one of the run's nodes watches (a wait_until node), routed by
   * api-server: taken once per event, in the order of arrival.
   */
  @SignalMethod(name = RECORD_EVENT)
  void recordEvent(RecordEvent event);

  /**
   * Holds, releases or ends the run at its next safe point (see {@link RunControl}); an ask older
   * than the last one taken is passed over.
   */
  @SignalMethod(name = CONTROL)
  void control(RunControl control);

  /**
   * Moves the run to another version of its flow ({@link RunMove}) at its safe point, and answers
   * where each branch goes on; a run that runs that version already answers {@link
   * RunMoveResult#ALREADY} and changes nothing.
   */
  @UpdateMethod(name = MOVE)
  RunMoveResult move(RunMove move);

  /**
   * Refuses a move, saying why, when the run is not at a safe point (a branch acts or is between
   * nodes), has ended, or a node it waits at has no place in the target version.
   */
  @UpdateValidatorMethod(updateName = MOVE)
  void validateMove(RunMove move);
}
