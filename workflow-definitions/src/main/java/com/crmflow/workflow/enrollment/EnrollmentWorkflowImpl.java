package com.crmflow.workflow.enrollment;

import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.run.AutomationRunWorkflowImpl;

/**
 * Runs the interpreter in this workflow's own thread: the enrollment is one workflow (one history
 * in the Temporal UI, one workflow per waiting contact in memory), not a parent waiting on a child.
 */
public class EnrollmentWorkflowImpl implements EnrollmentWorkflow {

  @Override
  public RunResult run(RunInput input) {
    return new AutomationRunWorkflowImpl().run(input);
  }
}
