package com.crmflow.workflow.node;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What one config value must hold, checked whenever the key is present (on every save of a canvas):
 * the answer is the problem, or null when the value is fine.
 */
@FunctionalInterface
public interface ConfigCheck {

  String problem(Object value);

  ConfigCheck STRING = value -> value instanceof String ? null : "must be a string";

  ConfigCheck BOOLEAN = value -> value instanceof Boolean ? null : "must be true or false";

  ConfigCheck NON_NEGATIVE_NUMBER =
      value ->
          value instanceof Number n && n.doubleValue() >= 0 && n.doubleValue() <= 3650
              ? null
              : "must be a number from 0 to 3650";

  ConfigCheck TIMEOUT_SECONDS =
      value ->
          value instanceof Number n && n.doubleValue() >= 1 && n.doubleValue() <= 60
              ? null
              : "must be a number of seconds from 1 to 60";

  ConfigCheck DAY_OF_MONTH =
      value ->
          Checks.isInteger(value)
                  && ((Number) value).intValue() >= 1
                  && ((Number) value).intValue() <= 31
              ? null
              : "must be a day of the month from 1 to 31";

  ConfigCheck TIME =
      value ->
          value instanceof String s && Checks.TIME.matcher(s).matches()
              ? null
              : "must be a time HH:mm (24-hour)";

  ConfigCheck TIMEZONE =
      value -> Checks.isZone(value) ? null : "must be an IANA time zone such as Europe/Berlin";

  ConfigCheck CRON = Checks::cronProblem;

  ConfigCheck DAYS_OF_WEEK = Checks::daysOfWeekProblem;

  /** A split's branches: {@code [{label, percent}]}, 2 to 20, labels unique, summing to 100. */
  ConfigCheck BRANCHES = Checks::branchesProblem;

  /** A send window: {@code {days: [1..7], from: "HH:mm", to: "HH:mm", timezone}}. */
  ConfigCheck WINDOW = SendWindow::problem;

  ConfigCheck STRING_MAP =
      value ->
          value instanceof Map<?, ?> map && map.values().stream().allMatch(v -> v instanceof String)
              ? null
              : "must be an object whose values are strings";

  /**
   * HTTP headers: an object of strings whose names are HTTP field names (RFC 9110's token), so that
   * a name is sent as it is stored and a credential name is recognised as the service seals it
   * ({@link NodeSecrets#isCredentialHeader}): {@code "Cookie "} is no header name.
   */
  ConfigCheck HEADERS = Checks::headersProblem;

  ConfigCheck OBJECT = value -> value instanceof Map<?, ?> ? null : "must be an object";

  ConfigCheck UUID = value -> Checks.isUuid(value) ? null : "must be a UUID";

  /** A number from {@code min} to {@code max} (either may be null: no bound). */
  static ConfigCheck numberBetween(Double min, Double max) {
    String range =
        min != null && max != null
            ? "must be a number from " + plain(min) + " to " + plain(max)
            : min != null
                ? "must be a number of at least " + plain(min)
                : max != null ? "must be a number of at most " + plain(max) : "must be a number";
    return value ->
        value instanceof Number n
                && (min == null || n.doubleValue() >= min)
                && (max == null || n.doubleValue() <= max)
            ? null
            : range;
  }

  static ConfigCheck oneOf(List<String> allowed) {
    return value ->
        value instanceof String s && allowed.contains(s) ? null : "must be one of " + allowed;
  }

  /** The checks' helpers. */
  /** A limit as a person writes it: 1, not 1.0; 0.5 as it is. */
  static String plain(double number) {
    return number == Math.rint(number) ? String.valueOf((long) number) : String.valueOf(number);
  }

  final class Checks {

    private static final Pattern TIME = Pattern.compile("^([01][0-9]|2[0-3]):[0-5][0-9]$");

    /** RFC 9110's token: one or more of its tchar. */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

    private static final CronParser CRON_PARSER =
        new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    /** The most branches a split has. */
    static final int MOST_BRANCHES = 20;

    private Checks() {}

    static boolean isInteger(Object value) {
      return value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue());
    }

    static boolean isZone(Object value) {
      if (!(value instanceof String s) || !(s.contains("/") || s.equals("UTC"))) {
        return false;
      }
      try {
        ZoneId.of(s);
        return true;
      } catch (DateTimeException e) {
        return false;
      }
    }

    static boolean isUuid(Object value) {
      if (!(value instanceof String s)) {
        return false;
      }
      try {
        java.util.UUID.fromString(s);
        return s.length() == 36;
      } catch (IllegalArgumentException e) {
        return false;
      }
    }

    static String cronProblem(Object value) {
      if (!(value instanceof String s) || s.trim().split("\\s+").length != 5) {
        return "must be a 5-field cron expression (minute hour day-of-month month day-of-week)";
      }
      try {
        CRON_PARSER.parse(s.trim()).validate();
        return null;
      } catch (IllegalArgumentException e) {
        return "is not a valid cron expression: " + e.getMessage();
      }
    }

    static String headersProblem(Object value) {
      String problem = STRING_MAP.problem(value);
      if (problem != null) {
        return problem;
      }
      return ((Map<?, ?>) value)
              .keySet().stream().allMatch(name -> HEADER_NAME.matcher((String) name).matches())
          ? null
          : "must name each header with letters, digits and !#$%&'*+-.^_`|~ only";
    }

    static String branchesProblem(Object value) {
      if (!(value instanceof List<?> branches)) {
        return "must be an array of branches [{label, percent}]";
      }
      if (branches.size() < 2 || branches.size() > MOST_BRANCHES) {
        return "must hold 2 to " + MOST_BRANCHES + " branches";
      }
      Set<String> labels = new HashSet<>();
      double total = 0;
      for (Object each : branches) {
        if (!(each instanceof Map<?, ?> branch)
            || !(branch.get("label") instanceof String label)
            || label.isBlank()
            || label.length() > 100
            || !(branch.get("percent") instanceof Number percent)
            || branch.size() != 2) {
          return "must hold branches {label: a text of 1 to 100 characters, percent: a number}";
        }
        if (percent.doubleValue() <= 0 || percent.doubleValue() > 100) {
          return "gives branch "
              + label
              + " "
              + plain(percent.doubleValue())
              + "%: a percent is above 0 and at most 100";
        }
        if (!labels.add(label)) {
          return "names branch " + label + " twice";
        }
        total += percent.doubleValue();
      }
      if (Math.abs(total - 100) > 1e-9) {
        return "has percents that sum to " + plain(total) + ", not 100";
      }
      return null;
    }

    static String daysOfWeekProblem(Object value) {
      if (!(value instanceof List<?> days)) {
        return "must be an array of days, 0 (Sunday) to 6 (Saturday)";
      }
      Set<Integer> seen = new HashSet<>();
      for (Object day : days) {
        if (!isInteger(day) || ((Number) day).intValue() < 0 || ((Number) day).intValue() > 6) {
          return "must hold days 0 (Sunday) to 6 (Saturday); found " + day;
        }
        if (!seen.add(((Number) day).intValue())) {
          return "lists day " + day + " twice";
        }
      }
      return null;
    }
  }
}
