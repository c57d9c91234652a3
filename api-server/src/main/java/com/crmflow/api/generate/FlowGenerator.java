package com.crmflow.api.generate;

import com.crmflow.workflow.canvas.Canvas;
import java.util.Optional;

/**
 * Turns a natural-language prompt into a flow. The default is {@link RuleBasedFlowGenerator}, which
 * needs no network; whatever a generator returns goes through the same validation.
 */
public interface FlowGenerator {

  /**
   * @param automation whether the flow is an automation (it then starts with a trigger; a sequence
   *     starts with its first step and gets no trigger)
   * @return the flow, or empty when nothing usable was understood
   */
  Optional<Canvas> generate(String prompt, boolean automation);
}
