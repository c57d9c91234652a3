package com.crmflow.workflow.contract;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** One run of a flow: interprets the pinned canvas. Workflow id {@code run-<runId>}. */
@WorkflowInterface
public interface AutomationRunWorkflow {

  static String workflowId(String runId) {
    return "run-" + runId;
  }

  @WorkflowMethod
  RunResult run(RunInput input);
}
