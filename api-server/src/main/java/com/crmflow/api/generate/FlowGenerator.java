package com.crmflow.api.generate;

import com.crmflow.workflow.canvas.Canvas;
import java.util.List;
import java.util.Optional;

/**
 * Turns a natural-language prompt into a flow. The default is {@link
 * com.crmflow.api.generate.rules.RuleBasedFlowGenerator}, which needs no network; whatever a
 * generator returns goes through the same validation.
 */
public interface FlowGenerator {

  /**
   * @param automation whether the flow is an automation (it then starts with a trigger; a sequence
   *     starts with its first step and gets no trigger)
   */
  Reading read(String prompt, boolean automation);

  /**
   * What was read from a prompt.
   *
   * @param flow the flow, or empty when nothing usable was understood
   * @param unclear the clauses that could not be tied to one record or field: a flow read with any
   *     of them is not used (a wrong flow that looks right is worse than a question)
   * @param reenroll what the prompt says of the flow's re-enrollment ("only once per contact"), or
   *     null: nothing
   */
  record Reading(Optional<Canvas> flow, List<Unclear> unclear, Reenroll reenroll) {

    public Reading {
      unclear = List.copyOf(unclear);
    }

    public Reading(Optional<Canvas> flow, List<Unclear> unclear) {
      this(flow, unclear, null);
    }

    /** Whether the flow can be used as it is: something was read, and nothing was unclear. */
    public boolean usable() {
      return flow.isPresent() && unclear.isEmpty();
    }
  }

  /**
   * A clause of the prompt and what it leaves open.
   *
   * @param clause the clause as the parser read it (German, French and Spanish put into English)
   * @param question what the prompt must say for the clause to be read
   */
  record Unclear(String clause, String question) {}

  /**
   * A re-enrollment rule a prompt names ({@code settings.reenroll} and {@code
   * reenroll_after_days}).
   */
  record Reenroll(String rule, Integer afterDays) {}
}
