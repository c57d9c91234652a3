package com.crmflow.workflow.node;

import java.math.BigDecimal;
import java.util.List;

/**
 * A rendered value compared with another as a condition compares them: the operators, and the
 * comparison (numbers as numbers, else text). A condition node, a data_transform's filter and a
 * flow's goal ({@link FlowGoal}) all compare this way.
 */
public final class Comparisons {

  public static final List<String> OPERATORS =
      List.of(
          "equals",
          "not_equals",
          "contains",
          "not_contains",
          "greater_than",
          "less_than",
          "is_empty",
          "is_not_empty");

  /** The operators that compare with no value. */
  public static final List<String> VALUELESS_OPERATORS = List.of("is_empty", "is_not_empty");

  private Comparisons() {}

  /**
   * Whether {@code actual} passes the comparison with {@code expected}.
   *
   * @throws NodeFailure an operator not in {@link #OPERATORS}
   */
  public static boolean compare(String actual, String operator, String expected) {
    return switch (operator) {
      case "equals" -> sameValue(actual, expected);
      case "not_equals" -> !sameValue(actual, expected);
      case "contains" -> actual.contains(expected);
      case "not_contains" -> !actual.contains(expected);
      case "greater_than" -> numericCompare(actual, expected) > 0;
      case "less_than" -> numericCompare(actual, expected) < 0;
      case "is_empty" -> actual.isBlank();
      case "is_not_empty" -> !actual.isBlank();
      default -> throw new NodeFailure("unknown operator " + operator);
    };
  }

  private static boolean sameValue(String a, String b) {
    BigDecimal x = number(a);
    BigDecimal y = number(b);
    return x != null && y != null ? x.compareTo(y) == 0 : a.equals(b);
  }

  /** Non-numbers never compare as greater or less: the result is 0 (neither). */
  private static int numericCompare(String a, String b) {
    BigDecimal x = number(a);
    BigDecimal y = number(b);
    return x == null || y == null ? 0 : x.compareTo(y);
  }

  private static BigDecimal number(String text) {
    try {
      return new BigDecimal(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
