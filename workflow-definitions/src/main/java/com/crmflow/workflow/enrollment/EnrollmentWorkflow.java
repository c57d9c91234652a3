package com.crmflow.workflow.enrollment;

import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunControl;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunMove;
import com.crmflow.workflow.contract.RunMoveResult;
import com.crmflow.workflow.contract.RunResult;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * A contact's way through a sequence: the sequence's pinned canvas run by the same interpreter as
 * every automation run, so its run record and node log look the same. One per (tenant, sequence,
 * contact) at a time. The enrollment's end (completed or failed) is recorded with the run's end, in
 * the same transaction; unenrolling cancels the workflow.
 */
@WorkflowInterface
public interface EnrollmentWorkflow {

  static String workflowId(String tenantId, String sequenceId, String contactId) {
    return "enrollment-" + tenantId + "-" + sequenceId + "-" + contactId;
  }

  @WorkflowMethod
  RunResult run(RunInput input);

  /** As {@link AutomationRunWorkflow#recordEvent}: the run's interpreter takes it. */
  @SignalMethod(name = AutomationRunWorkflow.RECORD_EVENT)
  void recordEvent(RecordEvent event);

  /**
   * As {@link AutomationRunWorkflow#control}: a pause or an archive of the sequence holds, releases
   * or ends the enrollment's run at its next safe point.
   */
  @SignalMethod(name = AutomationRunWorkflow.CONTROL)
  void control(RunControl control);

  /** As {@link AutomationRunWorkflow#move}: the enrollment's run moves to another version. */
  @UpdateMethod(name = AutomationRunWorkflow.MOVE)
  RunMoveResult move(RunMove move);

  /** As {@link AutomationRunWorkflow#validateMove}. */
  @UpdateValidatorMethod(updateName = AutomationRunWorkflow.MOVE)
  void validateMove(RunMove move);
}
