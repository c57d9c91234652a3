package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * chat_message: "post the result to #sales", "notify the team on Slack"; #general when no channel
 * is named. The message is the quoted text, the last http_request's response when the clause speaks
 * of the result, or else the clause.
 */
final class ChatMessageBuilder implements StepBuilder {

  private static final Pattern CHANNEL = Pattern.compile("(#[\\p{L}0-9_-]+)");

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    String lower = clause.lower();
    return CHANNEL.matcher(clause.text()).find()
        || lower.contains("slack")
        || lower.contains("chat");
  }

  @Override
  public void build(Clause clause, FlowDraft flow) {
    Matcher channel = CHANNEL.matcher(clause.text());
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("channel", channel.find() ? channel.group(1) : "#general");
    config.put("messageTemplate", messageFor(flow, clause.text()));
    flow.add(NodeType.CHAT_MESSAGE.value(), "Post to " + config.get("channel"), config);
  }

  private static String messageFor(FlowDraft flow, String clause) {
    String quoted = Words.quotedOr(clause, null);
    if (quoted != null) {
      return quoted;
    }
    if (flow.lastHttpRequest() != null && clause.toLowerCase(Locale.ROOT).contains("result")) {
      return "Result: {{" + flow.lastHttpRequest() + ".body}}";
    }
    return Words.capitalise(clause);
  }
}
