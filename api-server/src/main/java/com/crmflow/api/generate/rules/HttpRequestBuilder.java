package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * http_request: a clause with a URL and no email ("call https://...", "post to https://..."); the
 * verb it starts with is the method (GET unless it says post, put, patch or delete), and a method
 * with a body sends the trigger's event as JSON.
 */
final class HttpRequestBuilder implements StepBuilder {

  private static final Pattern URL = Pattern.compile("https?://[^\\s,;\"']+[^\\s,;\"'.]");

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    return URL.matcher(clause.text()).find() && !clause.lower().contains("email");
  }

  @Override
  public void build(Clause clause, FlowDraft flow) {
    Matcher url = URL.matcher(clause.text());
    if (!url.find()) {
      return;
    }
    String lower = clause.lower();
    Map<String, Object> config = new LinkedHashMap<>();
    String method =
        lower.matches("^(post|send|push|submit).*")
            ? "POST"
            : lower.matches("^(put|replace).*")
                ? "PUT"
                : lower.matches("^(patch).*")
                    ? "PATCH"
                    : lower.matches("^(delete|remove).*") ? "DELETE" : "GET";
    config.put("method", method);
    config.put("url", url.group());
    if (!method.equals("GET") && !method.equals("DELETE")) {
      config.put("headers", Map.of("Content-Type", "application/json"));
      config.put(
          "bodyTemplate",
          "{\"event\": {{trigger}}}".replace("{{trigger}}", "\"{{trigger.event}}\""));
    }
    flow.add(NodeType.HTTP_REQUEST.value(), method + " " + host(url.group()), config);
  }

  private static String host(String url) {
    return url.replaceFirst("^https?://", "").replaceFirst("/.*$", "");
  }
}
