package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * email: "send an email with subject X", "send a welcome email"; its subject is the quoted text,
 * what follows "subject"/"titled"/"called"/"saying", or the kind of email it names, and its body
 * hint is the clause.
 */
final class EmailBuilder implements StepBuilder {

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    String lower = clause.lower();
    return lower.contains("email") || lower.contains("e-mail") || lower.startsWith("send");
  }

  @Override
  public void build(Clause email, FlowDraft flow) {
    String clause = email.text();
    Map<String, Object> config = new LinkedHashMap<>();
    String subject = null;
    Matcher quoted = Words.QUOTED.matcher(clause);
    if (quoted.find()) {
      subject = quoted.group(1).trim();
    } else {
      Matcher after =
          Pattern.compile("(?i)(?:subject|titled|called|saying)\\s*:?\\s+(.+)$").matcher(clause);
      if (after.find()) {
        subject = after.group(1).trim();
      }
    }
    if (subject == null) {
      Matcher kind =
          Pattern.compile("(?i)(?:an?|the)\\s+([a-z-]+(?:\\s+[a-z-]+)?)\\s+e-?mail")
              .matcher(clause);
      subject = kind.find() ? Words.capitalise(kind.group(1)) : "Hello {{contact.first_name}}";
    }
    config.put("subject", subject);
    config.put("bodyHint", clause);
    Map<String, Object> window = SendWindow.window(email);
    if (window != null) {
      config.put("window", window);
    }
    flow.add(NodeType.EMAIL.value(), "Email: " + subject, config);
  }
}
