package com.crmflow.workflow.run;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Canvases for interpreter tests. */
public final class Canvases {

  private Canvases() {}

  public static CanvasNode node(String id, String type, Map<String, Object> config) {
    return new CanvasNode(id, type, new Position(0, 0), new NodeData(id, config));
  }

  /** A data_transform node of that kind with those mappings. */
  public static CanvasNode transform(
      String id, String transformType, Map<String, Object> mappings) {
    return node(id, "data_transform", Map.of("transformType", transformType, "mappings", mappings));
  }

  static CanvasEdge edge(String source, String target) {
    return new CanvasEdge(source + ">" + target, source, target, "default", null);
  }

  static CanvasEdge branch(String source, String target, String label) {
    return new CanvasEdge(source + ">" + target, source, target, "conditional", label);
  }

  /** A sequence: email step1 → wait1 (2 days) → email step2 → wait2 (2 days) → email step3. */
  public static Canvas threeStepSequence() {
    return new Canvas(
        List.of(
            node("step1", "email", Map.of("subject", "1: hello {{contact.first_name}}")),
            node("wait1", "delay", Map.of("delayDays", 2)),
            node("step2", "email", Map.of("subject", "2: still there?")),
            node("wait2", "delay", Map.of("delayDays", 2)),
            node("step3", "email", Map.of("subject", "3: last call"))),
        List.of(
            edge("step1", "wait1"),
            edge("wait1", "step2"),
            edge("step2", "wait2"),
            edge("wait2", "step3")));
  }

  /**
   * webhook → http_request to {@code /orders/{{trigger.order_id}}/status?force={{trigger.force}}} →
   * http_request to {@code /orders/{{trigger.dots}}/status}: trigger values in a url's path and
   * query.
   */
  static Canvas urlValues() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(
                "order",
                "http_request",
                Map.of(
                    "method",
                    "GET",
                    "url",
                    "https://example.com/orders/{{trigger.order_id}}/status"
                        + "?force={{trigger.force}}")),
            node(
                "dots",
                "http_request",
                Map.of(
                    "method", "GET", "url", "https://example.com/orders/{{trigger.dots}}/status"))),
        List.of(edge("hook", "order"), edge("order", "dots")));
  }

  /** webhook → GET https://example.com */
  static Canvas hookThenCall() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node("call", "http_request", Map.of("method", "GET", "url", "https://example.com"))),
        List.of(edge("hook", "call")));
  }

  /** webhook → http_request → wait 1 day → http_request with the first call's body.id */
  static Canvas callWaitCall() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node("first", "http_request", Map.of("method", "GET", "url", "https://example.com/a")),
            node("wait", "delay", Map.of("delayDays", 1)),
            node(
                "second",
                "http_request",
                Map.of(
                    "method", "POST", "url", "https://example.com/b/{{http_request_1.body.id}}"))),
        List.of(edge("hook", "first"), edge("first", "wait"), edge("wait", "second")));
  }

  /** webhook → wait a day, and beside it webhook → http_request that the peer refuses (404) */
  static Canvas failureBesideADelay() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node("wait", "delay", Map.of("delayDays", 1)),
            node(
                "bad",
                "http_request",
                Map.of("method", "GET", "url", "https://example.com/refused"))),
        List.of(edge("hook", "wait"), edge("hook", "bad")));
  }

  /**
   * webhook → bad (a 404), beside webhook → slow (answers when told) → after, and webhook → wait a
   * day → tail.
   */
  static Canvas failureBesideASlowCallAndADelay() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(
                "bad",
                "http_request",
                Map.of("method", "GET", "url", "https://example.com/refused")),
            node(
                "slow", "http_request", Map.of("method", "GET", "url", "https://example.com/slow")),
            node(
                "after",
                "http_request",
                Map.of("method", "GET", "url", "https://example.com/after")),
            node("wait", "delay", Map.of("delayDays", 1)),
            node(
                "tail",
                "http_request",
                Map.of("method", "GET", "url", "https://example.com/tail"))),
        List.of(
            edge("hook", "bad"),
            edge("hook", "slow"),
            edge("slow", "after"),
            edge("hook", "wait"),
            edge("wait", "tail")));
  }

  /** webhook → call, beside webhook → wait a day → tail. */
  static Canvas callBesideADelay() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(
                "call", "http_request", Map.of("method", "GET", "url", "https://example.com/call")),
            node("wait", "delay", Map.of("delayDays", 1)),
            node(
                "tail",
                "http_request",
                Map.of("method", "GET", "url", "https://example.com/tail"))),
        List.of(edge("hook", "call"), edge("hook", "wait"), edge("wait", "tail")));
  }

  /** webhook → wait 3 days → http_request */
  static Canvas threeDayWait() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node("wait", "delay", Map.of("delayDays", 3)),
            node(
                "call",
                "http_request",
                Map.of("method", "POST", "url", "https://example.com/{{trigger.id}}"))),
        List.of(edge("hook", "wait"), edge("wait", "call")));
  }

  /**
   * Every node type the engine runs: trigger, http_request, condition, data_transform (all three
   * kinds), delay, a parallel join.
   */
  static Canvas everyBuiltNodeType() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(
                "fetch",
                "http_request",
                Map.of("method", "GET", "url", "https://example.com/items")),
            node(
                "check",
                "condition",
                Map.of(
                    "field",
                    "{{http_request_1.statusCode}}",
                    "operator",
                    "equals",
                    "value",
                    "200")),
            transform(
                "filter",
                "filter",
                Map.of(
                    "source",
                    "http_request_1.body.items",
                    "field",
                    "status",
                    "operator",
                    "equals",
                    "value",
                    "active")),
            transform("map", "map", Map.of("count", "{{data_transform_1.count}}")),
            transform("merge", "merge", Map.of("sources", List.of("trigger", "data_transform_2"))),
            node("wait", "delay", Map.of("delayHours", 2)),
            node(
                "notify",
                "http_request",
                Map.of(
                    "method",
                    "POST",
                    "url",
                    "https://example.com/done",
                    "bodyTemplate",
                    "{\"n\": \"{{data_transform_3.count}}\"}")),
            node(
                "skipped",
                "http_request",
                Map.of("method", "POST", "url", "https://example.com/never"))),
        List.of(
            edge("hook", "fetch"),
            edge("fetch", "check"),
            branch("check", "filter", "true"),
            branch("check", "skipped", "false"),
            edge("filter", "map"),
            edge("filter", "wait"),
            edge("map", "merge"),
            edge("merge", "notify"),
            edge("wait", "notify")));
  }

  /**
   * Outputs near Temporal's payload limit: webhook → large (an answer of {@link
   * ScriptedHttp#LARGE_BLOB} characters) → copy (map: that blob again) → merge (the trigger and the
   * answer: over 1.5 MiB when the trigger carries a large value too) → wait an hour → done.
   */
  static Canvas largeOutputs() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(
                "large",
                "http_request",
                Map.of("method", "GET", "url", "https://example.com/large")),
            transform("copy", "map", Map.of("copy", "{{http_request_1.body.blob}}")),
            transform(
                "merge", "merge", Map.of("sources", List.of("trigger", "http_request_1.body"))),
            node("wait", "delay", Map.of("delayHours", 1)),
            node(
                "done",
                "http_request",
                Map.of("method", "POST", "url", "https://example.com/done"))),
        List.of(
            edge("hook", "large"),
            edge("large", "copy"),
            edge("copy", "merge"),
            edge("merge", "wait"),
            edge("wait", "done")));
  }

  /**
   * webhook → call1 → … → callN, each answering {@code {blob}} of 900 kB (ScriptedHttp "/large")
   */
  static Canvas chainOfLargeCalls(int calls) {
    List<CanvasNode> nodes = new ArrayList<>();
    List<CanvasEdge> edges = new ArrayList<>();
    nodes.add(node("hook", "webhook_trigger", Map.of()));
    String previous = "hook";
    for (int i = 1; i <= calls; i++) {
      String id = "call" + i;
      nodes.add(
          node(id, "http_request", Map.of("method", "GET", "url", "https://example.com/large")));
      edges.add(edge(previous, id));
      previous = id;
    }
    return new Canvas(nodes, edges);
  }

  /** webhook → call1 … callN in parallel branches, each held until ScriptedHttp's slow answer */
  static Canvas parallelSlowCalls(int calls) {
    return parallelCalls("call", calls, Map.of("method", "GET", "url", "https://example.com/slow"));
  }

  /** webhook → post1 … postN (in parallel branches), each POSTing {@code bodyTemplate} */
  static Canvas parallelPosts(int posts, String bodyTemplate) {
    return parallelCalls(
        "post",
        posts,
        Map.of("method", "POST", "url", "https://example.com/post", "bodyTemplate", bodyTemplate));
  }

  /**
   * webhook → copyN (map: {@code {copy: trigger.big}}) → waitN (an hour), in N parallel branches:
   * each branch hands its copy to the recorder when it starts waiting, all in the first task
   */
  static Canvas parallelCopiesThenWaits(int branches) {
    List<CanvasNode> nodes = new ArrayList<>();
    List<CanvasEdge> edges = new ArrayList<>();
    nodes.add(node("hook", "webhook_trigger", Map.of()));
    for (int i = 1; i <= branches; i++) {
      nodes.add(transform("copy" + i, "map", Map.of("copy", "{{trigger.big}}")));
      nodes.add(node("wait" + i, "delay", Map.of("delayHours", 1)));
      edges.add(edge("hook", "copy" + i));
      edges.add(edge("copy" + i, "wait" + i));
    }
    return new Canvas(nodes, edges);
  }

  /** webhook → {prefix}1 … {prefix}N in parallel branches, http_request nodes of one config */
  private static Canvas parallelCalls(String prefix, int calls, Map<String, Object> config) {
    List<CanvasNode> nodes = new ArrayList<>();
    List<CanvasEdge> edges = new ArrayList<>();
    nodes.add(node("hook", "webhook_trigger", Map.of()));
    for (int i = 1; i <= calls; i++) {
      nodes.add(node(prefix + i, "http_request", config));
      edges.add(edge("hook", prefix + i));
    }
    return new Canvas(nodes, edges);
  }

  /**
   * webhook → wait_until (a conversation.message_received, at most 3 days) → "/met" on met,
   * "/timeout" on timeout.
   */
  static Canvas waitForAReply() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(
                "reply",
                "wait_until",
                Map.of("eventType", "conversation.message_received", "timeoutDays", 3)),
            node("met", "http_request", Map.of("method", "POST", "url", "https://example.com/met")),
            node(
                "gave-up",
                "http_request",
                Map.of("method", "POST", "url", "https://example.com/timeout"))),
        List.of(
            edge("hook", "reply"),
            branch("reply", "met", "met"),
            branch("reply", "gave-up", "timeout")));
  }

  /** webhook → split 50/50 → "A": a call to /a, "B": a call to /b. */
  static Canvas splitFiftyFifty() {
    return new Canvas(
        List.of(
            node("hook", "webhook_trigger", Map.of()),
            node(
                "split",
                "split",
                Map.of(
                    "branches",
                    List.of(
                        Map.of("label", "A", "percent", 50), Map.of("label", "B", "percent", 50)))),
            node("a", "http_request", Map.of("method", "POST", "url", "https://example.com/a")),
            node("b", "http_request", Map.of("method", "POST", "url", "https://example.com/b"))),
        List.of(edge("hook", "split"), branch("split", "a", "A"), branch("split", "b", "B")));
  }
}
