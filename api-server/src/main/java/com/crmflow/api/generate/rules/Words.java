package com.crmflow.api.generate.rules;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What several builders read the same way: quoted text, zones, durations, numbers, labels. */
final class Words {

  static final Pattern QUOTED = Pattern.compile("[\"“']([^\"”']{1,200})[\"”']");
  static final Pattern ZONE =
      Pattern.compile("\\b([A-Z][A-Za-z_]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?|UTC)\\b");
  static final Pattern DURATION =
      Pattern.compile(
          "(\\d+(?:\\.\\d+)?|an?|one|two|three|four|five|six|seven|ten)\\s*(minutes?|mins?|hours?|hrs?|days?|weeks?)",
          Pattern.CASE_INSENSITIVE);

  private Words() {}

  static String quotedOr(String clause, String fallback) {
    Matcher quoted = QUOTED.matcher(clause);
    return quoted.find() ? quoted.group(1).trim() : fallback;
  }

  static double number(String word) {
    return switch (word) {
      case "a", "an", "one" -> 1;
      case "two" -> 2;
      case "three" -> 3;
      case "four" -> 4;
      case "five" -> 5;
      case "six" -> 6;
      case "seven" -> 7;
      case "ten" -> 10;
      default -> Double.parseDouble(word);
    };
  }

  /** A whole number as an int, so that a config reads 2 rather than 2.0. */
  static Number whole(double value) {
    return value == Math.rint(value) ? (Number) (int) value : (Number) value;
  }

  /** A label: the text trimmed, its first letter upper case, at most 200 characters. */
  static String capitalise(String text) {
    String t = text.trim();
    String c = t.isEmpty() ? t : Character.toUpperCase(t.charAt(0)) + t.substring(1);
    return c.length() > 200 ? c.substring(0, 200) : c;
  }
}
