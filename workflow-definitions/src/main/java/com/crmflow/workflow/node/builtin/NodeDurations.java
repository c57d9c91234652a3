package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.template.TemplateResolver;

/** A wait's length as a person reads it: "2 days 3 hours", "90 minutes". */
final class NodeDurations {

  private NodeDurations() {}

  static String describe(double days, double hours, double minutes) {
    StringBuilder out = new StringBuilder();
    append(out, days, "day");
    append(out, hours, "hour");
    append(out, minutes, "minute");
    return out.toString();
  }

  private static void append(StringBuilder out, double amount, String unit) {
    if (amount > 0) {
      out.append(out.isEmpty() ? "" : " ")
          .append(TemplateResolver.asString(amount))
          .append(' ')
          .append(unit)
          .append(amount == 1 ? "" : "s");
    }
  }
}
