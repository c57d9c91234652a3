package com.crmflow.api.generate.rules;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The send window of an email or a delay: named in the email's clause ("send a welcome email
 * between 9 and 5") or in a clause of its own after it ("..., only between 9 and 5 their time"),
 * which adds no node but sets the window of the step before.
 */
final class SendWindow implements StepBuilder {

  /** "between 9 and 5", "between 9:30am and 4pm". */
  private static final Pattern BETWEEN =
      Pattern.compile(
          "(?i)\\bbetween\\s+(\\d{1,2})(?:[:.](\\d{2}))?\\s*(am|pm)?\\s+and\\s+(\\d{1,2})"
              + "(?:[:.](\\d{2}))?\\s*(am|pm)?");

  /** A clause that only says when to send: "only between 9 and 5 their time". */
  private static final Pattern WINDOW_ALONE =
      Pattern.compile(
          "^(?:only\\s+)?(?:send(?:\\s+it|\\s+them)?\\s+)?(?:only\\s+)?between\\s+[0-9:.apm\\s]+"
              + "and\\s+[0-9:.apm\\s]+(?:(?:in\\s+)?(?:their|the contact's|local)\\s+time)?"
              + "(?:\\s+(?:on\\s+)?(?:weekdays|business days|monday to friday))?\\s*$");

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    return WINDOW_ALONE.matcher(clause.lower()).matches() && flow.lastWindowable() != null;
  }

  @Override
  public void build(Clause clause, FlowDraft flow) {
    // "send a welcome email, only between 9 and 5 their time": the window of that email
    flow.lastWindowable().data().config().put("window", window(clause));
  }

  /**
   * The send window a clause names: "between 9 and 5" (a "to" not after its "from" without am/pm is
   * in the afternoon: 5 is 17:00), in the contact's zone unless the clause names one; every day
   * unless it says weekdays. Null when the clause names no window.
   */
  static Map<String, Object> window(Clause clause) {
    String lower = clause.lower();
    Matcher between = BETWEEN.matcher(lower);
    if (!between.find()) {
      return null;
    }
    int fromHour = hour(between.group(1), between.group(3));
    int toHour = hour(between.group(4), between.group(6));
    if (toHour <= fromHour && between.group(6) == null && toHour < 12) {
      toHour += 12;
    }
    Map<String, Object> window = new LinkedHashMap<>();
    window.put(
        "days",
        lower.matches(".*\\b(weekdays?|business days|monday to friday|mon-fri)\\b.*")
            ? List.of(1, 2, 3, 4, 5)
            : List.of(1, 2, 3, 4, 5, 6, 7));
    window.put(
        "from",
        String.format(
            Locale.ROOT, "%02d:%s", fromHour, between.group(2) == null ? "00" : between.group(2)));
    window.put(
        "to",
        String.format(
            Locale.ROOT,
            "%02d:%s",
            toHour % 24,
            between.group(5) == null ? "00" : between.group(5)));
    Matcher zone = Words.ZONE.matcher(clause.text());
    window.put("timezone", zone.find() ? zone.group(1) : "contact");
    return window;
  }

  private static int hour(String digits, String half) {
    int hour = Integer.parseInt(digits) % 24;
    if ("pm".equals(half) && hour < 12) {
      return hour + 12;
    }
    return "am".equals(half) && hour == 12 ? 0 : hour;
  }
}
