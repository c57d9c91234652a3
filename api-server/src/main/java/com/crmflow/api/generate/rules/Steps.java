package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a step clause: the first builder that reads it builds its node. The order matters where the
 * rules overlap: a split before a wait, a wait before anything that names a duration, a URL (an
 * http_request) before a channel or an email, a send window alone before an email. A clause no
 * builder reads adds nothing; if nothing at all is read, the answer is 422.
 *
 * <p>Day plans, "day 0 welcome email, day 3 tips": a delay for the days between steps, and a step
 * named only by its topic is an email.
 */
final class Steps {

  private static final Pattern DAY = Pattern.compile("(?i)^day\\s+(\\d{1,3})\\b\\s*:?\\s*(.*)$");

  private final EmailBuilder email = new EmailBuilder();
  private final List<StepBuilder> builders;

  Steps() {
    builders =
        List.of(
            new SplitBuilder(),
            new SendWindow(),
            new WaitUntilBuilder(),
            new DelayBuilder(this::read),
            new HttpRequestBuilder(),
            new ChatMessageBuilder(),
            email,
            new CreateRecordBuilder(),
            new CrmUpdateBuilder(),
            new DataTransformBuilder());
  }

  void read(Clause clause, FlowDraft flow) {
    Matcher day = DAY.matcher(clause.text());
    if (day.matches()) {
      // "day 0 welcome email, day 3 tips": a delay for the days between, then the step
      int n = Integer.parseInt(day.group(1));
      int from = flow.day() == null ? Math.min(n, 1) : flow.day();
      if (flow.day() != null || n > 1) {
        if (n > from) {
          Map<String, Object> config = new LinkedHashMap<>();
          config.put("delayDays", n - from);
          config.put("delayHours", 0);
          flow.add(NodeType.DELAY.value(), "Wait until day " + n, config);
        }
      }
      flow.day(n);
      String rest = day.group(2).trim();
      if (!rest.isEmpty()) {
        read(Clause.of(rest), flow);
      }
      return;
    }
    int before = flow.size();
    for (StepBuilder builder : builders) {
      if (builder.reads(clause, flow)) {
        builder.build(clause, flow);
        break;
      }
    }
    if (flow.size() == before && flow.day() != null) {
      // in a day plan, a step named by its topic ("tips", "check-in", "ask for a call") is an
      // email,
      // its body hint the topic as a label
      email.build(new Clause(Words.capitalise(clause.text()), clause.lower()), flow);
    }
  }
}
