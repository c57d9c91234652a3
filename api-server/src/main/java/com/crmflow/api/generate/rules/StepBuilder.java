package com.crmflow.api.generate.rules;

/**
 * What one node type makes of a step clause: whether the clause names it, and the node it adds to
 * the flow. {@link Steps} asks its builders in order and the first that reads a clause builds it,
 * so a builder's test need not exclude what an earlier builder reads.
 */
interface StepBuilder {

  /** Whether the clause names this builder's step, in the flow drafted so far. */
  boolean reads(Clause clause, FlowDraft flow);

  /**
   * Adds the clause's node to the flow; or adds nothing (a clause it cannot complete), or records
   * the clause as unclear (one that could name more than one record or field).
   */
  void build(Clause clause, FlowDraft flow);
}
