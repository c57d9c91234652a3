package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.action.HttpResponseData;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.node.NodeSecrets;
import com.crmflow.workflow.registration.NodeExecutors;
import io.temporal.common.converter.GlobalDataConverter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeInputTest {

  private static CanvasNode node(String type, Map<String, Object> config) {
    return new CanvasNode("n", type, null, new NodeData("N", config));
  }

  private static Map<String, Object> scope() {
    Map<String, Object> scope = new HashMap<>();
    scope.put("trigger", Map.of("plan", "pro", "token", "s3cret", "name", "Ada \"A\""));
    scope.put("contact", Map.of("email", "ada@example.com"));
    scope.put("http_request_1", Map.of("body", Map.of("items", List.of(1, 2))));
    return scope;
  }

  @Test
  void theConfigIsFilledInAsTheNodeSawItWithItsSecretsMaskedAndWhatItRead() {
    CanvasNode call =
        node(
            "http_request",
            Map.of(
                "method",
                "POST",
                "url",
                "https://example.com/{{trigger.plan}}",
                "headers",
                Map.of(
                    "Authorization",
                    NodeSecrets.SEALED_PREFIX + "Y2lwaGVy {{trigger.token}}",
                    "X-To",
                    "{{contact.email}}"),
                "bodyTemplate",
                "{\"name\": \"{{trigger.name}}\", \"missing\": \"{{trigger.nope}}\"}"));
    Map<String, Object> scope = scope();

    Map<String, Object> input =
        NodeInput.of(NodeExecutors.catalog(), call, NodeInput.variablesAtStart(scope), scope, true);

    assertThat(input.get("config"))
        .isEqualTo(
            Map.of(
                "method",
                "POST",
                "url",
                "https://example.com/pro",
                "headers",
                Map.of("Authorization", NodeSecrets.MASK, "X-To", "ada@example.com"),
                "bodyTemplate",
                "{\"name\": \"Ada \\\"A\\\"\", \"missing\": \"\"}"));
    Map<String, Object> read = new HashMap<>();
    read.put("trigger.plan", "pro");
    read.put("contact.email", "ada@example.com");
    read.put("trigger.name", "Ada \"A\"");
    read.put("trigger.nope", null);
    assertThat(input.get("read")).isEqualTo(read);
    // the variable read only inside the secret is not shown, nor the sealed text
    String json = new String(GlobalDataConverter.get().toPayload(input).get().toByteArray());
    assertThat(json).doesNotContain("s3cret", "Y2lwaGVy", "trigger.token");
  }

  @Test
  void aNodeThatReadTheContactAfreshShowsTheContactItReadAndNothingAddedSinceItStarted() {
    CanvasNode email = node("email", Map.of("subject", "Hi {{contact.email}} {{http_request_2}}"));
    Map<String, Object> scope = scope();
    Map<String, Object> atStart = NodeInput.variablesAtStart(scope);
    scope.put("contact", Map.of("email", "new@example.com"));
    scope.put("http_request_2", Map.of("late", true));

    Map<String, Object> input = NodeInput.of(NodeExecutors.catalog(), email, atStart, scope, true);

    assertThat(input.get("config")).isEqualTo(Map.of("subject", "Hi new@example.com "));
  }

  @Test
  void aNodeBesideAnEmailThatReadTheContactAfreshShowsTheContactItStartedWith() {
    CanvasNode say = node("chat_message", Map.of("messageTemplate", "For {{contact.email}}"));
    Map<String, Object> scope = scope();
    Map<String, Object> atStart = NodeInput.variablesAtStart(scope);
    scope.put("contact", Map.of("email", "new@example.com"));

    assertThat(NodeInput.contactChangedBeside(NodeExecutors.catalog(), say, atStart, scope))
        .isTrue();
    assertThat(NodeInput.of(NodeExecutors.catalog(), say, atStart, scope, true).get("config"))
        .isEqualTo(Map.of("messageTemplate", "For ada@example.com"));
    // a run without the change shows the contact as it is now
    assertThat(NodeInput.of(NodeExecutors.catalog(), say, atStart, scope, false).get("config"))
        .isEqualTo(Map.of("messageTemplate", "For new@example.com"));
    CanvasNode email = node("email", Map.of("subject", "Hi {{contact.email}}"));
    assertThat(NodeInput.contactChangedBeside(NodeExecutors.catalog(), email, atStart, scope))
        .isFalse();
    assertThat(NodeInput.contactChangedBeside(NodeExecutors.catalog(), say, atStart, atStart))
        .isFalse();
  }

  @Test
  void aDataTransformShowsThePathsItLookedUp() {
    CanvasNode filter =
        node(
            "data_transform",
            Map.of(
                "transformType",
                "filter",
                "mappings",
                Map.of(
                    "source", "http_request_1.body.items", "field", "x", "operator", "is_empty")));
    Map<String, Object> scope = scope();

    Map<String, Object> input =
        NodeInput.of(
            NodeExecutors.catalog(), filter, NodeInput.variablesAtStart(scope), scope, true);

    assertThat(input.get("read")).isEqualTo(Map.of("http_request_1.body.items", List.of(1, 2)));
  }

  @Test
  void triggersHaveNoInputTheirsIsThePayload() {
    Map<String, Object> scope = scope();
    assertThat(
            NodeInput.of(
                NodeExecutors.catalog(),
                node("webhook_trigger", Map.of("secretToken", "t")),
                NodeInput.variablesAtStart(scope),
                scope,
                true))
        .isNull();
  }

  @Test
  void longStringsAreCutAndAnInputStillTooLargeIsANoteOfItsSize() {
    Map<String, Object> scope = scope();
    scope.put("trigger", Map.of("big", "é".repeat(5000)));
    Map<String, Object> input =
        NodeInput.of(
            NodeExecutors.catalog(),
            node("email", Map.of("subject", "{{trigger.big}}")),
            NodeInput.variablesAtStart(scope),
            scope,
            true);

    @SuppressWarnings("unchecked")
    String subject = (String) ((Map<String, Object>) input.get("config")).get("subject");
    assertThat(subject)
        .hasSize(NodeInput.STRING_CHARS + " (3000 more characters)".length() + 1)
        .startsWith("éé")
        .endsWith("… (3000 more characters)");

    Map<String, Object> many = new HashMap<>();
    for (int i = 0; i < 100; i++) {
      many.put("field" + i, "x".repeat(1000));
    }
    Map<String, Object> bounded = NodeInput.bounded(Map.of("config", many));
    assertThat(bounded).containsOnlyKeys("omitted", "bytes");
    assertThat(bounded.get("omitted")).isEqualTo(NodeInput.OMITTED);
    assertThat((Integer) bounded.get("bytes")).isGreaterThan(NodeInput.LIMIT_BYTES);
    Map<String, Object> fits = Map.of("config", Map.of("a", "x".repeat(1000)));
    assertThat(NodeInput.bounded(fits)).isEqualTo(fits);
  }

  @Test
  void anAnswerWithoutASpanIdHasTheSizeItHadBeforeAnswersCarriedOne() {
    String json =
        new String(
            GlobalDataConverter.get()
                .toPayload(new HttpResponseData(200, Map.of(), "ok"))
                .get()
                .getData()
                .toByteArray());
    assertThat(json).isEqualTo("{\"statusCode\":200,\"headers\":{},\"body\":\"ok\"}");
    assertThat(
            new String(
                GlobalDataConverter.get()
                    .toPayload(new HttpResponseData(200, Map.of(), "ok", "00f067aa0ba902b7"))
                    .get()
                    .getData()
                    .toByteArray()))
        .contains("\"spanId\":\"00f067aa0ba902b7\"");
  }

  /**
   * A type added beside the built-ins, in one class: what it reads afresh, what it looks up and
   * which field renders as JSON come from its own hooks, as the built-ins' do.
   */
  static final class LookupNode implements NodeExecutor {

    @Override
    public NodeDescriptor descriptor() {
      return new NodeDescriptor(
          new NodeType("lookup", false),
          "Lookup",
          NodeDescriptor.ACTIONS,
          "lookup",
          "looks a path up and posts it",
          List.of(ConfigField.template("payload", "Payload")),
          NodeAccess.NONE,
          List.of());
    }

    @Override
    public Map<String, Object> execute(CanvasNode node, NodeRun run) {
      return Map.of();
    }

    @Override
    public List<String> pathsLookedUp(CanvasNode node) {
      return List.of(String.valueOf(node.config("path")));
    }

    @Override
    public boolean readsContactAfresh() {
      return true;
    }

    @Override
    public boolean rendersAsJson(String field) {
      return "payload".equals(field);
    }
  }

  @Test
  void anAddedTypeSaysWhatItReadsAfreshLooksUpAndRendersAsJson() {
    NodeCatalog catalog = NodeExecutors.with(List.of(new LookupNode()));
    CanvasNode lookup =
        node(
            "lookup",
            Map.of("path", "trigger.plan", "payload", "{\"name\": \"{{trigger.name}}\"}"));
    Map<String, Object> scope = scope();
    Map<String, Object> atStart = NodeInput.variablesAtStart(scope);
    scope.put("contact", Map.of("email", "new@example.com"));

    assertThat(NodeInput.contactChangedBeside(catalog, lookup, atStart, scope)).isFalse();
    Map<String, Object> input = NodeInput.of(catalog, lookup, atStart, scope, true);
    assertThat(input.get("config"))
        .isEqualTo(Map.of("path", "trigger.plan", "payload", "{\"name\": \"Ada \\\"A\\\"\"}"));
    assertThat(input.get("read"))
        .isEqualTo(Map.of("trigger.name", "Ada \"A\"", "trigger.plan", "pro"));
    // the same node unknown to the catalog: nothing looked up, its template as plain text
    Map<String, Object> unknown =
        NodeInput.of(NodeExecutors.catalog(), lookup, atStart, scope, true);
    assertThat(unknown.get("read")).isEqualTo(Map.of("trigger.name", "Ada \"A\""));
  }
}
