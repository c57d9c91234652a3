package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.CanvasNode;
import java.util.List;

/** The trigger builders, in the order a clause is tried against them: the first that reads it. */
final class Triggers {

  private final ScheduleTriggerBuilder schedule = new ScheduleTriggerBuilder();
  private final List<TriggerBuilder> builders =
      List.of(new WebhookTriggerBuilder(), schedule, new CrmEventTriggerBuilder());

  /** The trigger the clause names, or null when it names none. */
  CanvasNode read(Clause clause) {
    for (TriggerBuilder builder : builders) {
      CanvasNode trigger = builder.read(clause);
      if (trigger != null) {
        return trigger;
      }
    }
    return null;
  }

  /**
   * Whether the clause starts the way a schedule or an event does, so that an action named later in
   * it ("every Monday at 9:00 call https://...") is a clause of its own.
   */
  boolean startsLikeTrigger(Clause clause) {
    return schedule.read(clause) != null
        || CrmEventTriggerBuilder.EVENT_START.matcher(clause.lower()).find();
  }
}
