package com.crmflow.workflow.enrollment;

import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.contract.RunControl;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunMove;
import com.crmflow.workflow.contract.RunMoveResult;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.builtin.BuiltInNodes;
import com.crmflow.workflow.run.AutomationRunWorkflowImpl;

/**
 * Runs the interpreter in this workflow's own thread: the enrollment is one workflow (one history
 * in the Temporal UI, one workflow per waiting contact in memory), not a parent waiting on a child.
 */
public class EnrollmentWorkflowImpl implements EnrollmentWorkflow {

  private final AutomationRunWorkflowImpl interpreter;

  /** An enrollment of the built-in node types ({@link BuiltInNodes#catalog()}). */
  public EnrollmentWorkflowImpl() {
    this(BuiltInNodes.catalog());
  }

  /** An enrollment that runs the node types of this catalog. */
  public EnrollmentWorkflowImpl(NodeCatalog catalog) {
    this.interpreter = new AutomationRunWorkflowImpl(catalog);
  }

  @Override
  public RunResult run(RunInput input) {
    return interpreter.run(input);
  }

  @Override
  public void recordEvent(RecordEvent event) {
    interpreter.recordEvent(event);
  }

  @Override
  public void control(RunControl control) {
    interpreter.control(control);
  }

  @Override
  public RunMoveResult move(RunMove move) {
    return interpreter.move(move);
  }

  @Override
  public void validateMove(RunMove move) {
    interpreter.validateMove(move);
  }
}
