package com.crmflow.workflow.run;

/**
 * A delay cut short by another branch's failure: logged skipped ({@link RunResult#CUT_BY_FAILURE})
 * and not passed, so a retry runs it and what follows it.
 */
class NodeCut extends NodeSkipped {
  NodeCut() {
    super(RunResult.CUT_BY_FAILURE);
  }
}
