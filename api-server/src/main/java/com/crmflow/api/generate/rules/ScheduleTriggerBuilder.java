package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * schedule_trigger: "every Monday at 9:00 Europe/Berlin", "daily at 7:30", "every 15 minutes", "on
 * the 1st of every month at 8:00"; 09:00 UTC unless the clause names a time or a zone.
 */
final class ScheduleTriggerBuilder implements TriggerBuilder {

  private static final Pattern TIME =
      Pattern.compile(
          "\\b([01]?[0-9]|2[0-3])[:.h]([0-5][0-9])\\b\\s*(am|pm)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern TIME_AMPM =
      Pattern.compile("\\b(1[0-2]|0?[1-9])\\s*(am|pm)\\b", Pattern.CASE_INSENSITIVE);
  private static final List<String> DAYS =
      List.of("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday");

  @Override
  public CanvasNode read(Clause clause) {
    String lower = clause.lower();
    boolean scheduled =
        lower.startsWith("every")
            || lower.startsWith("daily")
            || lower.startsWith("weekly")
            || lower.startsWith("monthly")
            || lower.startsWith("each")
            || lower.startsWith("on the ");
    if (!scheduled) {
      return null;
    }
    Map<String, Object> config = new LinkedHashMap<>();
    Matcher minutes = Pattern.compile("every\\s+(\\d{1,2})\\s*min").matcher(lower);
    Matcher hours = Pattern.compile("every\\s+(\\d{1,2})?\\s*hours?").matcher(lower);
    String time = time(clause.text());
    config.put("timezone", zone(clause.text()));
    if (minutes.find()) {
      config.put("scheduleType", "custom");
      config.put("customCron", "*/" + minutes.group(1) + " * * * *");
      config.put("time", "00:00");
      return TriggerBuilder.node(
          NodeType.SCHEDULE_TRIGGER, "Every " + minutes.group(1) + " minutes", config);
    }
    if (hours.find() && time == null) {
      String n = hours.group(1) == null ? "1" : hours.group(1);
      config.put("scheduleType", "custom");
      config.put("customCron", "0 */" + n + " * * *");
      config.put("time", "00:00");
      return TriggerBuilder.node(NodeType.SCHEDULE_TRIGGER, "Every " + n + " hour(s)", config);
    }
    config.put("time", time == null ? "09:00" : time);
    List<Integer> days = new ArrayList<>();
    for (int d = 0; d < DAYS.size(); d++) {
      if (lower.contains(DAYS.get(d))) {
        days.add(d);
      }
    }
    if (lower.contains("weekday")) {
      days = List.of(1, 2, 3, 4, 5);
    }
    Matcher dayOfMonth = Pattern.compile("(\\d{1,2})(?:st|nd|rd|th)").matcher(lower);
    if (lower.contains("month") && dayOfMonth.find()) {
      config.put("scheduleType", "monthly");
      config.put("dayOfMonth", Math.max(1, Math.min(31, Integer.parseInt(dayOfMonth.group(1)))));
    } else if (lower.contains("month")) {
      config.put("scheduleType", "monthly");
      config.put("dayOfMonth", 1);
    } else if (!days.isEmpty()) {
      config.put("scheduleType", "weekly");
      config.put("daysOfWeek", days);
    } else if (lower.contains("week")) {
      config.put("scheduleType", "weekly");
      config.put("daysOfWeek", List.of(1));
    } else {
      config.put("scheduleType", "daily");
    }
    return TriggerBuilder.node(NodeType.SCHEDULE_TRIGGER, "Schedule: " + clause.text(), config);
  }

  private static String time(String clause) {
    Matcher m = TIME.matcher(clause);
    if (m.find()) {
      int hour = Integer.parseInt(m.group(1));
      if (m.group(3) != null) {
        hour = hour % 12 + (m.group(3).equalsIgnoreCase("pm") ? 12 : 0);
      }
      return "%02d:%s".formatted(hour, m.group(2));
    }
    Matcher ampm = TIME_AMPM.matcher(clause);
    if (ampm.find()) {
      int hour =
          Integer.parseInt(ampm.group(1)) % 12 + (ampm.group(2).equalsIgnoreCase("pm") ? 12 : 0);
      return "%02d:00".formatted(hour);
    }
    return null;
  }

  private static String zone(String clause) {
    Matcher m = Words.ZONE.matcher(clause);
    while (m.find()) {
      try {
        return ZoneId.of(m.group(1)).getId();
      } catch (DateTimeException e) {
        // not a zone: keep looking
      }
    }
    return "UTC";
  }
}
