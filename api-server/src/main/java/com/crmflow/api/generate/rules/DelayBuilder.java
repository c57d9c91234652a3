package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;

/**
 * delay: "wait 2 days", "delay 3 hours", "after 1 week"; the durations named add up, one day when
 * none is named. What follows the duration in the clause ("wait 2 days tips email") is the next
 * step.
 */
final class DelayBuilder implements StepBuilder {

  private final BiConsumer<Clause, FlowDraft> nextStep;

  /**
   * @param nextStep reads what follows the duration as a step of its own
   */
  DelayBuilder(BiConsumer<Clause, FlowDraft> nextStep) {
    this.nextStep = nextStep;
  }

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    String lower = clause.lower();
    return lower.startsWith("wait")
        || lower.startsWith("delay")
        || lower.startsWith("after") && Words.DURATION.matcher(lower).find();
  }

  @Override
  public void build(Clause clause, FlowDraft flow) {
    Matcher m = Words.DURATION.matcher(clause.lower());
    double days = 0;
    double hours = 0;
    int end = 0;
    while (m.find()) {
      end = m.end();
      double n = Words.number(m.group(1));
      String unit = m.group(2);
      if (unit.startsWith("w")) {
        days += 7 * n;
      } else if (unit.startsWith("d")) {
        days += n;
      } else if (unit.startsWith("h")) {
        hours += n;
      } else {
        hours += n / 60.0;
      }
    }
    if (days == 0 && hours == 0) {
      days = 1;
    }
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("delayDays", Words.whole(days));
    config.put("delayHours", Words.whole(hours));
    String text = clause.text();
    String rest = end == 0 ? "" : text.substring(end).trim();
    flow.add(
        NodeType.DELAY.value(),
        Words.capitalise(rest.isEmpty() ? text : text.substring(0, end)),
        config);
    // "wait 2 days tips email": what follows the duration is the next step
    String next = rest.replaceFirst("(?i)^(and|then|and then)\\s+", "").trim();
    if (!next.isEmpty()) {
      nextStep.accept(Clause.of(next), flow);
    }
  }
}
