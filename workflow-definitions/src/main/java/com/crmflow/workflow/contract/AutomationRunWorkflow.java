package com.crmflow.workflow.contract;

import com.crmflow.workflow.action.RecordEvent;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** One run of a flow: interprets the pinned canvas. Workflow id {@code run-<runId>}. */
@WorkflowInterface
public interface AutomationRunWorkflow {

  /** The signal that routes a CRM event to a node that watches its record. */
  String RECORD_EVENT = "record_event";

  /** The signal that holds, releases or ends a run whose flow was paused or archived. */
  String CONTROL = "run_control";

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
}
