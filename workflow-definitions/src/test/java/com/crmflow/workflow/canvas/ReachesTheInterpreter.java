package com.crmflow.workflow.canvas;

import com.crmflow.workflow.run.AutomationRunWorkflowImpl;

/**
 * What {@code EngineLayersTest} forbids: a class of the canvas model that uses the interpreter
 * (which itself uses the canvas: a cycle, and a lower layer reaching a higher one).
 */
public class ReachesTheInterpreter {

  public AutomationRunWorkflowImpl interpreter;
}
