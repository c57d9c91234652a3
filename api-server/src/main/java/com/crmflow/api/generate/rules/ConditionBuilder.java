package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * condition: "if ..." opens one; the steps after it go on its true branch, and "otherwise" opens
 * its false branch. Its field is read against what the flow starts on ({@link RecordFields}); a
 * clause whose field, operator or value cannot be read is unclear rather than guessed. It is tried
 * before the steps and is not one of them: its clause may carry the first step of its branch ("if
 * the deal is won send a thank-you email"), which goes back to be read as a clause.
 */
final class ConditionBuilder implements StepBuilder {

  /** "if <field> <operator> <value>", the field in as many words as the prompt needs. */
  private static final Pattern COMPARISON =
      Pattern.compile(
          "(?i)^if\\s+(.+?)\\s+(is not|isn't|does not contain|doesn't contain|contains|equals"
              + "|is equal to|!=|>=|<=|=|>|<|(?:is\\s+)?(?:greater than|more than|higher than|over"
              + "|above|exceeds|at least|less than|lower than|fewer than|under|below|at most)|is)"
              + "\\s+['\"]?(.+?)['\"]?(?:\\s+is)?$");

  /**
   * German word order, the verb last: "if the plan enterprise is" (wenn der Plan enterprise ist).
   */
  private static final Pattern VERB_LAST = Pattern.compile("(?i)^if\\s+(.+)\\s+(\\S+)\\s+is$");

  private static final Pattern AMOUNT =
      Pattern.compile(
          "(?i)^[$€£]?\\s*(\\d{1,3}(?:[,.' ]\\d{3})+|\\d+(?:\\.\\d+)?)\\s*(k)?\\s*"
              + "(?:[$€£]|usd|eur|gbp|dollars?|euros?)?$");

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    return clause.lower().startsWith("if ");
  }

  @Override
  public void build(Clause condition, FlowDraft flow) {
    String clause = condition.text();
    String lower = condition.lower();
    Map<String, Object> config = new LinkedHashMap<>();
    Matcher comparison = COMPARISON.matcher(clause);
    Matcher verbLast = VERB_LAST.matcher(clause);
    if (lower.contains("replied") || lower.contains("responded") || lower.contains("answered")) {
      config.put("field", "{{trigger.replied}}");
      config.put("operator", "equals");
      config.put("value", "true");
    } else if (lower.contains("opened")) {
      config.put("field", "{{trigger.opened}}");
      config.put("operator", "equals");
      config.put("value", "true");
    } else if (flow.lastHttpRequest() != null
        && (lower.contains("succeed") || lower.matches(".*\\bok\\b.*"))) {
      config.put("field", "{{" + flow.lastHttpRequest() + ".statusCode}}");
      config.put("operator", "less_than");
      config.put("value", "300");
    } else if (comparison.find()) {
      compare(flow, clause, comparison.group(1), comparison.group(2), comparison.group(3), config);
    } else if (verbLast.find()) {
      compare(flow, clause, verbLast.group(1), "is", verbLast.group(2), config);
    } else {
      flow.unclear(
          clause,
          "which field does it test, and against what? e.g. \"if the deal amount is over"
              + " 10000\", \"if the contact's lifecycle stage is customer\"");
    }
    flow.addBranching(
        NodeType.CONDITION.value(), Words.capitalise(clause), config, "true", List.of("false"));
  }

  /** A condition's field, operator and value, or the clause as unclear. */
  private static void compare(
      FlowDraft flow,
      String clause,
      String subject,
      String word,
      String value,
      Map<String, Object> config) {
    RecordFields.Resolution field = RecordFields.read(subject, flow.start());
    if (!field.clear()) {
      flow.unclear(clause, field.question());
      return;
    }
    String operator = operator(word.toLowerCase(Locale.ROOT).replaceAll("\\s+", " "));
    String compared = value.trim();
    if (operator == null) {
      flow.unclear(
          clause,
          "a condition compares with \"over\" or \"under\" (greater_than, less_than), not"
              + " \""
              + word
              + "\": say which");
      return;
    }
    if (operator.equals("greater_than") || operator.equals("less_than")) {
      compared = comparable(compared);
      if (compared == null) {
        flow.unclear(clause, "\"" + value.trim() + "\" is not a number to compare with");
        return;
      }
    }
    config.put("field", field.field().template());
    config.put("operator", operator);
    config.put("value", compared);
  }

  /** "10,000", "$10000", "10k", "10.000 €" as "10000"; null when it is not a number. */
  static String comparable(String text) {
    Matcher amount = AMOUNT.matcher(text.trim());
    if (!amount.matches()) {
      return null;
    }
    String digits = amount.group(1);
    if (digits.matches("\\d{1,3}(?:[,.' ]\\d{3})+")) {
      digits = digits.replaceAll("[,.' ]", "");
    }
    if (amount.group(2) != null) {
      return Words.whole(Double.parseDouble(digits) * 1000).toString();
    }
    return digits;
  }

  /** The condition operator of a comparison word; null for "at least"/"at most" (no such one). */
  static String operator(String word) {
    return switch (word) {
      case "is not", "isn't", "!=" -> "not_equals";
      case "contains" -> "contains";
      case "does not contain", "doesn't contain" -> "not_contains";
      case ">" -> "greater_than";
      case "<" -> "less_than";
      default ->
          word.matches(".*(at least|at most|>=|<=).*")
              ? null
              : word.matches(".*(greater|more|higher|over|above|exceeds).*")
                  ? "greater_than"
                  : word.matches(".*(less|lower|fewer|under|below).*") ? "less_than" : "equals";
    };
  }
}
