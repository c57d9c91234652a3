package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wait_until: the event the clause waits for (a reply, a customer, a meeting, a deal's stage), at
 * most its duration (3 days when it names none); the steps after it go on its {@code met} edge, and
 * "otherwise" opens its {@code timeout} edge.
 */
final class WaitUntilBuilder implements StepBuilder {

  /** "wait until they reply", "wait for an answer", "wait until the deal changes stage". */
  private static final Pattern WAIT_UNTIL =
      Pattern.compile(
          "^(?:wait|hold)\\s+(?:until|till|for)\\s+(?!day\\b)(?!\\d)"
              + "(?=.*\\b(?:repl(?:y|ies|ied)|respon(?:d|ds|se)|answers?|writes? back|customer"
              + "|books? a meeting|meeting is booked|stage|deal (?:moves|changes)))");

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    return WAIT_UNTIL.matcher(clause.lower()).find();
  }

  @Override
  public void build(Clause clause, FlowDraft flow) {
    String lower = clause.lower();
    Map<String, Object> config = new LinkedHashMap<>();
    if (lower.contains("customer")) {
      config.put("eventType", "contact.updated");
      config.put("filterField", "lifecycle_stage");
      config.put("filterValue", "customer");
    } else if (lower.contains("meeting")) {
      config.put("eventType", "meeting.booked");
    } else if (lower.contains("stage") || lower.matches(".*\\bdeal (?:moves|changes).*")) {
      config.put("eventType", "opportunity.stage_changed");
    } else {
      config.put("eventType", "conversation.message_received");
    }
    Matcher m = Words.DURATION.matcher(lower);
    double minutes = 0;
    while (m.find()) {
      double n = Words.number(m.group(1));
      String unit = m.group(2);
      minutes +=
          unit.startsWith("w")
              ? n * 7 * 24 * 60
              : unit.startsWith("d") ? n * 24 * 60 : unit.startsWith("h") ? n * 60 : n;
    }
    if (minutes == 0) {
      minutes = 3 * 24 * 60;
    }
    if (minutes % (24 * 60) == 0) {
      config.put("timeoutDays", Words.whole(minutes / (24 * 60)));
    } else if (minutes % 60 == 0) {
      config.put("timeoutHours", Words.whole(minutes / 60));
    } else {
      config.put("timeoutMinutes", Words.whole(minutes));
    }
    flow.addBranching(
        NodeType.WAIT_UNTIL.value(),
        Words.capitalise(clause.text()),
        config,
        "met",
        List.of("timeout"));
  }
}
