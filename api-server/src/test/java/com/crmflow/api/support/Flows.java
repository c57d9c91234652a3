package com.crmflow.api.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds canvas JSON for tests: nodes and edges as the API takes them. */
public final class Flows {

  private Flows() {}

  public static Map<String, Object> node(String id, String type, Map<String, Object> config) {
    Map<String, Object> node = new LinkedHashMap<>();
    if (id != null) {
      node.put("id", id);
    }
    node.put("type", type);
    node.put("position", Map.of("x", 0, "y", 0));
    node.put("data", Map.of("label", type + " " + id, "config", config));
    return node;
  }

  /** A node with a label of its own, placed at (x, y) on the canvas. */
  public static Map<String, Object> labelled(
      String id, String type, String label, Map<String, Object> config, int x, int y) {
    Map<String, Object> node = node(id, type, config);
    node.put("position", Map.of("x", x, "y", y));
    node.put("data", Map.of("label", label, "config", config));
    return node;
  }

  public static Map<String, Object> edge(String id, String source, String target) {
    Map<String, Object> edge = new HashMap<>();
    edge.put("id", id);
    edge.put("source", source);
    edge.put("target", target);
    return edge;
  }

  public static Map<String, Object> edge(String id, String source, String target, String label) {
    Map<String, Object> edge = edge(id, source, target);
    edge.put("type", "conditional");
    edge.put("label", label);
    return edge;
  }

  public static Map<String, Object> canvas(
      List<Map<String, Object>> nodes, List<Map<String, Object>> edges) {
    return Map.of("nodes", nodes, "edges", edges);
  }

  /**
   * A webhook_trigger with this id, then each of the nodes in turn (edges e1, e2, ...): the shape
   * of most tests' flows.
   */
  @SafeVarargs
  public static Map<String, Object> chain(String triggerId, Map<String, Object>... steps) {
    List<Map<String, Object>> nodes = new ArrayList<>();
    nodes.add(node(triggerId, "webhook_trigger", Map.of()));
    List<Map<String, Object>> edges = new ArrayList<>();
    for (Map<String, Object> step : steps) {
      Object previous = nodes.get(nodes.size() - 1).get("id");
      edges.add(edge("e" + nodes.size(), (String) previous, (String) step.get("id")));
      nodes.add(step);
    }
    return canvas(nodes, edges);
  }

  /** webhook → http_request → delay: a complete automation. */
  public static Map<String, Object> completeAutomation(String triggerId) {
    return chain(
        triggerId,
        node("call", "http_request", Map.of("method", "POST", "url", "https://example.com/hook")),
        node("wait", "delay", Map.of("delayDays", 1)));
  }

  /** webhook → wait a day ("wait") → GET the url ("later"): its runs wait on the delay. */
  public static Map<String, Object> waitADayThenCall(String triggerId, String url) {
    return chain(
        triggerId,
        node("wait", "delay", Map.of("delayDays", 1)),
        node("later", "http_request", Map.of("method", "GET", "url", url)));
  }

  /** An http_request config: method, url and further key, value pairs. */
  public static Map<String, Object> http(String method, String url, Object... extra) {
    Map<String, Object> config = new HashMap<>();
    config.put("method", method);
    config.put("url", url);
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
    return config;
  }

  /** email → delay → email: a complete sequence. */
  public static Map<String, Object> completeSequence() {
    return canvas(
        List.of(
            node("hello", "email", Map.of("subject", "Hello {{contact.first_name}}")),
            node("wait", "delay", Map.of("delayDays", 2)),
            node("again", "email", Map.of("subject", "Following up"))),
        List.of(edge("e1", "hello", "wait"), edge("e2", "wait", "again")));
  }

  /** A crm_event_trigger on contact.updated with this id → a data_transform: writes nothing. */
  public static Map<String, Object> noteOfContactUpdates(String triggerId) {
    return canvas(
        List.of(
            node(triggerId, "crm_event_trigger", Map.of("eventType", "contact.updated")),
            node(
                "note",
                "data_transform",
                Map.of("transformType", "map", "mappings", Map.of("seen", "{{trigger.event}}")))),
        List.of(edge("e1", triggerId, "note")));
  }

  /** A webhook_trigger with this id → crm_update "set-title" of the body's contact_id, title. */
  public static Map<String, Object> titleFromTheBody(String hookId) {
    return canvas(
        List.of(
            node(hookId, "webhook_trigger", Map.of()),
            node(
                "set-title",
                "crm_update",
                Map.of(
                    "entityType",
                    "contact",
                    "recordId",
                    "{{trigger.contact_id}}",
                    "fieldMappings",
                    Map.of("title", "{{trigger.title}}")))),
        List.of(edge("e1", hookId, "set-title")));
  }
}
