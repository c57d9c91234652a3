package com.crmflow.workflow.node;

import static com.crmflow.workflow.run.Canvases.node;
import static com.crmflow.workflow.run.Canvases.transform;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.node.builtin.BuiltInNodes;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FlowAccessTest {

  private static final CanvasNode HOOK = node("hook", "webhook_trigger", Map.of());

  private static FlowAccess of(CanvasNode... nodes) {
    List<CanvasNode> all = new java.util.ArrayList<>(List.of(HOOK));
    all.addAll(List.of(nodes));
    return FlowAccess.of(new Canvas(all, List.of()), BuiltInNodes.catalog());
  }

  private static CanvasNode post(String body) {
    return node(
        "call", "http_request", Map.of("method", "POST", "url", "https://x", "bodyTemplate", body));
  }

  @Test
  void aFlowThatReadsOnlyItsTriggerReadsNoRecord() {
    FlowAccess access = of(post("{{trigger}}"), post("{\"id\": \"{{ trigger.contact_id }}\"}"));

    assertThat(access.variablesRead()).containsExactly("trigger");
    assertThat(access.recordsRead()).isEmpty();
    assertThat(access.recordsWritten()).isEmpty();
    assertThat(access.readsContact()).isFalse();
  }

  @Test
  void theContactIsReadByAnyTemplateThatNamesIt() {
    assertThat(of(post("{{contact}}")).readsContact()).as("bare").isTrue();
    assertThat(of(post("{{ contact }}")).readsContact()).as("bare, spaced").isTrue();
    assertThat(of(post("x {{  contact.email  }} y")).readsContact()).as("a field").isTrue();
    assertThat(
            of(node(
                    "call",
                    "http_request",
                    Map.of("method", "GET", "url", "https://x/{{ contact.email }}")))
                .readsContact())
        .as("in the url")
        .isTrue();
    assertThat(
            of(node(
                    "call",
                    "http_request",
                    Map.of(
                        "method",
                        "GET",
                        "url",
                        "https://x",
                        "headers",
                        Map.of("X-Who", "{{contact.name}}"))))
                .readsContact())
        .as("in a header, a nested map")
        .isTrue();
    assertThat(
            of(node(
                    "call",
                    "http_request",
                    Map.of(
                        "method",
                        "GET",
                        "url",
                        "https://x",
                        "headers",
                        Map.of("Authorization", "sealed:v1:c2VhbGVk {{contact.email}}"))))
                .readsContact())
        .as("in a sealed header: its stored form names its variables")
        .isTrue();
    assertThat(
            of(node(
                    "make",
                    "create_record",
                    Map.of(
                        "entityType",
                        "note",
                        "fieldMappings",
                        Map.of("tags", List.of("a", Map.of("b", "{{contact.phone}}"))))))
                .readsContact())
        .as("in a list inside a map")
        .isTrue();
    assertThat(
            of(node(
                    "if",
                    "condition",
                    Map.of("field", "{{contact.lead_status}}", "operator", "equals", "value", "x")))
                .readsContact())
        .as("a condition's field")
        .isTrue();
    assertThat(
            of(node(
                    "if",
                    "condition",
                    Map.of(
                        "field", "{{trigger.x}}", "operator", "equals", "value", "{{contact.x}}")))
                .readsContact())
        .as("a condition's value")
        .isTrue();
    assertThat(
            of(post("{{contacts}}"), post("{{contact_1}}"), post("contact.email")).readsContact())
        .as("other names, and text that is no template")
        .isFalse();
  }

  @Test
  void dataTransformReadsItsPathsAndTemplates() {
    assertThat(
            of(transform("f", "filter", Map.of("source", "contact", "field", "x"))).readsContact())
        .as("filter source")
        .isTrue();
    assertThat(
            of(transform("f", "filter", Map.of("source", " contact.items ", "field", "x")))
                .readsContact())
        .as("a path as lookup trims it")
        .isTrue();
    assertThat(
            of(transform("m", "merge", Map.of("sources", List.of("trigger", "contact"))))
                .readsContact())
        .as("merge sources")
        .isTrue();
    assertThat(of(transform("m", "map", Map.of("out", "{{contact.email}}"))).readsContact())
        .as("map templates")
        .isTrue();
    assertThat(
            of(transform("f", "filter", Map.of("source", "trigger.items", "field", "contact")))
                .readsContact())
        .as("a filter's field is a path inside each item")
        .isFalse();
    assertThat(
            of(transform("m", "merge", Map.of("sources", List.of("http_request_1.body"))))
                .variablesRead())
        .containsExactly("http_request_1");
  }

  @Test
  void nodeTypesReadAndWriteTheirRecords() {
    FlowAccess access =
        FlowAccess.of(
            new Canvas(
                List.of(
                    node("on", "crm_event_trigger", Map.of("eventType", "opportunity.created")),
                    node(
                        "mark",
                        "crm_update",
                        Map.of("entityType", "account", "fieldMappings", Map.of("x", "y"))),
                    node(
                        "make",
                        "create_record",
                        Map.of("entityType", "task", "fieldMappings", Map.of("x", "y"))),
                    node("mail", "email", Map.of("subject", "Hi")),
                    node("post", "chat_message", Map.of("channel", "#a", "messageTemplate", "hi"))),
                List.of()),
            BuiltInNodes.catalog());

    assertThat(access.recordsRead()).containsExactlyInAnyOrder("opportunity", "contact");
    assertThat(access.recordsWritten()).containsExactlyInAnyOrder("account", "task");
    assertThat(access.recordsHeld())
        .containsExactlyInAnyOrder("opportunity", "contact", "account", "task");
    assertThat(access.postsToChat()).isTrue();
    assertThat(of(post("{{trigger}}")).postsToChat()).isFalse();
  }

  @Test
  void readingAWriteNodesOutputReadsTheRecordItAnswersWith() {
    CanvasNode update =
        node(
            "mark",
            "crm_update",
            Map.of("entityType", "contact", "fieldMappings", Map.of("a", "b")));

    assertThat(of(update).recordsRead()).isEmpty();
    assertThat(of(update, post("{{crm_update_1.record}}")).recordsRead())
        .containsExactly("contact");
    assertThat(
            of(
                    node(
                        "make",
                        "create_record",
                        Map.of("entityType", "opportunity", "fieldMappings", Map.of("a", "b"))),
                    post("{{ create_record_1 }}"))
                .recordsRead())
        .containsExactly("opportunity");
  }

  @Test
  void eachNodeHoldsWhatItReadsAndWritesAndWhatTheVariablesItReadsHold() {
    CanvasNode event =
        node("on-deal", "crm_event_trigger", Map.of("eventType", "opportunity.updated"));
    CanvasNode mask =
        node(
            "mask",
            "data_transform",
            Map.of("transformType", "map", "mappings", Map.of("status", "{{contact.first_name}}")));
    CanvasNode plain =
        node(
            "plain",
            "data_transform",
            Map.of("transformType", "map", "mappings", Map.of("at", "{{trigger.timestamp}}")));
    CanvasNode call =
        node(
            "call",
            "http_request",
            Map.of("method", "POST", "url", "https://x", "bodyTemplate", "{{data_transform_1}}"));
    CanvasNode mark =
        node(
            "mark",
            "crm_update",
            Map.of("entityType", "account", "fieldMappings", Map.of("a", "b")));
    CanvasNode answer =
        node(
            "answer",
            "http_request",
            Map.of(
                "method", "POST", "url", "https://x", "bodyTemplate", "{{http_request_1.body}}"));
    CanvasNode mail = node("mail", "email", Map.of("subject", "Hello"));
    CanvasNode wait = node("wait", "delay", Map.of("delayHours", 1));
    Canvas canvas =
        new Canvas(List.of(event, mask, plain, call, mark, answer, mail, wait), List.of());

    Map<String, Set<String>> held = FlowAccess.heldByNode(canvas, BuiltInNodes.catalog(), Set.of());

    assertThat(held.get("on-deal")).containsExactly("opportunity");
    assertThat(held.get("mask")).containsExactly("contact");
    // the trigger's payload holds the event's record
    assertThat(held.get("plain")).containsExactly("opportunity");
    // data_transform_1 is either transform: what both hold
    assertThat(held.get("call")).containsExactlyInAnyOrder("contact", "opportunity");
    assertThat(held.get("mark")).containsExactly("account");
    // through a chain of outputs
    assertThat(held.get("answer")).containsExactlyInAnyOrder("contact", "opportunity");
    // an email goes to the contact and renders its stored template against the trigger
    assertThat(held.get("mail")).containsExactlyInAnyOrder("contact", "opportunity");
    assertThat(held.get("wait")).isEmpty();

    // an enrollment's payload names its contact
    assertThat(
            FlowAccess.heldByNode(
                    new Canvas(List.of(HOOK, plain), List.of()),
                    BuiltInNodes.catalog(),
                    Set.of("contact"))
                .get("plain"))
        .containsExactly("contact");
  }
}
