package com.crmflow.workflow.node;

import com.crmflow.workflow.contract.RunResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A delay cut short by another branch's failure: logged skipped ({@link RunResult#CUT_BY_FAILURE})
 * and not passed, so a retry runs it and what follows it. Its output keeps when it would have woken
 * ({@code until}), the time its retry waits for.
 */
public class NodeCut extends NodeSkipped {

  private final String until;

  /**
   * @param until when the delay would have woken (ISO-8601), or null: not logged
   */
  public NodeCut(String until) {
    super(RunResult.CUT_BY_FAILURE);
    this.until = until;
  }

  @Override
  public Map<String, Object> output() {
    if (until == null) {
      return super.output();
    }
    Map<String, Object> output = new LinkedHashMap<>(super.output());
    output.put("until", until);
    return output;
  }
}
