package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.registration.NodeExecutors;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.temporal.common.converter.GlobalDataConverter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeInput}'s output, byte for byte as the data converter writes it into a recorder
 * activity's input: fixed configs and variables in (parsed from JSON, so their order is fixed as a
 * stored canvas's is), the exact JSON out. Through the crm queue these bytes are in history and
 * decide how a run's log is cut into batches and workflow tasks: a change to any of them is an
 * interpreter change ({@code InterpreterChanges}), and fails here first.
 */
class NodeInputGoldenTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The run's variables when the nodes start. */
  private static final String SCOPE =
      """
      {"trigger": {"plan": "pro", "token": "s3cret", "name": "Ada \\"A\\"",
                   "note": "line 1\\nline 2\\ttab \\\\ slash", "amount": 1200,
                   "tags": ["a", "b"], "contact_id": "c-1"},
       "contact": {"contact_id": "c-1", "email": "ada@example.com", "first_name": "Ada"},
       "http_request_1": {"statusCode": 200, "body": {"id": 7, "items": [{"status": "active"}]}}}
      """;

  private static Map<String, Object> map(String json) throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> map = JSON.readValue(json, LinkedHashMap.class);
    return map;
  }

  private static CanvasNode node(String type, String config) throws Exception {
    return new CanvasNode("n", type, new Position(0, 0), new NodeData("N", map(config)));
  }

  /** The input of a node that ran with the variables of {@link #SCOPE}, as history holds it. */
  private static String inputOf(CanvasNode node) throws Exception {
    Map<String, Object> scope = map(SCOPE);
    return json(
        NodeInput.of(
            NodeExecutors.catalog(), node, NodeInput.variablesAtStart(scope), scope, true));
  }

  private static String json(Object value) {
    return GlobalDataConverter.get().toPayload(value).orElseThrow().getData().toStringUtf8();
  }

  @Test
  void anHttpRequestsSecretsAreMaskedBeforeFillingInAndItsBodyIsFilledInJsonEscaped()
      throws Exception {
    CanvasNode call =
        node(
            "http_request",
            """
            {"method": "POST", "url": "https://example.com/{{trigger.plan}}/{{ contact.contact_id }}",
             "headers": {"Authorization": "sealed:v1:Y2lwaGVy {{trigger.token}}",
                         "X-Api-Key": "sealed:v1:a2V5", "X-To": "{{contact.email}}",
                         "Accept": "application/json"},
             "bodyTemplate": "{\\"name\\": \\"{{trigger.name}}\\", \\"note\\": \\"{{trigger.note}}\\", \\"n\\": {{trigger.amount}}, \\"missing\\": \\"{{trigger.nope}}\\"}",
             "timeoutSeconds": 10}
            """);

    assertThat(inputOf(call))
        .isEqualTo(
            "{\"config\":{\"method\":\"POST\",\"url\":\"https://example.com/pro/c-1\",\"headers\":{\"Authorization\":\"********\",\"X-Api-Key\":\"********\",\"X-To\":\"ada@example.com\",\"Accept\":\"application/json\"},\"bodyTemplate\":\"{\\\"name\\\": \\\"Ada \\\\\\\"A\\\\\\\"\\\", \\\"note\\\": \\\"line 1\\\\nline 2\\\\ttab \\\\\\\\ slash\\\", \\\"n\\\": 1200, \\\"missing\\\": \\\"\\\"}\",\"timeoutSeconds\":10},\"read\":{\"trigger.plan\":\"pro\",\"contact.contact_id\":\"c-1\",\"contact.email\":\"ada@example.com\",\"trigger.name\":\"Ada \\\"A\\\"\",\"trigger.note\":\"line 1\\nline 2\\ttab \\\\ slash\",\"trigger.amount\":1200,\"trigger.nope\":null}}");
  }

  @Test
  void structuredValuesAreFilledInAsStringsAndNumbersStayAsTheyAre() throws Exception {
    CanvasNode mark =
        node(
            "crm_update",
            """
            {"entityType": "contact",
             "fieldMappings": {"lifecycle_stage": "lead", "lead_source": "{{trigger.plan}}",
                               "score": "{{trigger.amount}}", "tags": "{{trigger.tags}}",
                               "nested": {"list": ["{{contact.first_name}}", 3, true, null]}},
             "recordId": "{{trigger.contact_id}}", "continueOnFailure": true}
            """);

    assertThat(inputOf(mark))
        .isEqualTo(
            "{\"config\":{\"entityType\":\"contact\",\"fieldMappings\":{\"lifecycle_stage\":\"lead\",\"lead_source\":\"pro\",\"score\":\"1200\",\"tags\":\"[\\\"a\\\",\\\"b\\\"]\",\"nested\":{\"list\":[\"Ada\",3,true,null]}},\"recordId\":\"c-1\",\"continueOnFailure\":true},\"read\":{\"trigger.plan\":\"pro\",\"trigger.amount\":1200,\"trigger.tags\":[\"a\",\"b\"],\"contact.first_name\":\"Ada\",\"trigger.contact_id\":\"c-1\"}}");
  }

  @Test
  void aDataTransformShowsItsLookupsAndADelayReadsNothing() throws Exception {
    CanvasNode merge =
        node(
            "data_transform",
            """
            {"transformType": "merge",
             "mappings": {"sources": ["http_request_1.body", " trigger.tags", "nothing.here"],
                          "source": "http_request_1.body.items"}}
            """);
    CanvasNode wait = node("delay", "{\"delayDays\": 1, \"delayHours\": 0.5}");

    assertThat(inputOf(merge))
        .isEqualTo(
            "{\"config\":{\"transformType\":\"merge\",\"mappings\":{\"sources\":[\"http_request_1.body\",\" trigger.tags\",\"nothing.here\"],\"source\":\"http_request_1.body.items\"}},\"read\":{\"http_request_1.body.items\":[{\"status\":\"active\"}],\"http_request_1.body\":{\"id\":7,\"items\":[{\"status\":\"active\"}]},\"trigger.tags\":[\"a\",\"b\"],\"nothing.here\":null}}");
    assertThat(inputOf(wait))
        .isEqualTo("{\"config\":{\"delayDays\":1,\"delayHours\":0.5},\"read\":{}}");
    assertThat(
            NodeInput.of(
                NodeExecutors.catalog(),
                node("webhook_trigger", "{\"secretToken\": \"sealed:v1:dA==\"}"),
                map(SCOPE),
                map(SCOPE),
                true))
        .isNull();
  }

  @Test
  void theEmailShowsTheContactItReadAndANodeBesideItTheContactItStartedWith() throws Exception {
    Map<String, Object> scope = map(SCOPE);
    Map<String, Object> atStart = NodeInput.variablesAtStart(scope);
    scope.put("contact", map("{\"contact_id\": \"c-1\", \"email\": \"new@example.com\"}"));
    CanvasNode email =
        node(
            "email", "{\"subject\": \"Hi {{contact.first_name}}\", \"to\": \"{{contact.email}}\"}");
    CanvasNode say =
        node(
            "chat_message",
            "{\"channel\": \"#sales\", \"messageTemplate\": \"For {{contact.email}}\"}");

    assertThat(json(NodeInput.of(NodeExecutors.catalog(), email, atStart, scope, true)))
        .isEqualTo(
            "{\"config\":{\"subject\":\"Hi \",\"to\":\"new@example.com\"},\"read\":{\"contact.first_name\":null,\"contact.email\":\"new@example.com\"}}");
    assertThat(json(NodeInput.of(NodeExecutors.catalog(), say, atStart, scope, true)))
        .isEqualTo(
            "{\"config\":{\"channel\":\"#sales\",\"messageTemplate\":\"For ada@example.com\"},\"read\":{\"contact.email\":\"ada@example.com\"}}");
    // a run without node-input-contact
    assertThat(json(NodeInput.of(NodeExecutors.catalog(), say, atStart, scope, false)))
        .isEqualTo(
            "{\"config\":{\"channel\":\"#sales\",\"messageTemplate\":\"For new@example.com\"},\"read\":{\"contact.email\":\"new@example.com\"}}");
  }

  @Test
  void stringsAreCutAt2000CharactersNeverInsideASurrogatePair() throws Exception {
    Map<String, Object> scope = map(SCOPE);
    scope.put(
        "trigger",
        Map.of(
            "long",
            "a".repeat(2500),
            "emoji",
            "b".repeat(1999) + "😀" + "c".repeat(100),
            "exact",
            "d".repeat(2000)));
    CanvasNode email =
        node(
            "email",
            "{\"subject\": \"{{trigger.long}}\", \"body\": \"{{trigger.emoji}}\", \"to\": \"{{trigger.exact}}\"}");

    String json =
        json(
            NodeInput.of(
                NodeExecutors.catalog(), email, NodeInput.variablesAtStart(scope), scope, true));

    String a = "a".repeat(2000) + "… (500 more characters)";
    String b = "b".repeat(1999) + "… (102 more characters)";
    String d = "d".repeat(2000);
    assertThat(json)
        .isEqualTo(
            "{\"config\":{\"subject\":\"%s\",\"body\":\"%s\",\"to\":\"%s\"},".formatted(a, b, d)
                + "\"read\":{\"trigger.long\":\"%s\",\"trigger.emoji\":\"%s\",\"trigger.exact\":\"%s\"}}"
                    .formatted(a, b, d));
  }

  @Test
  void anInputOver64KibIsANoteOfItsSize() throws Exception {
    StringBuilder config = new StringBuilder("{");
    for (int i = 0; i < 40; i++) {
      config
          .append(i == 0 ? "" : ", ")
          .append("\"f")
          .append(i)
          .append("\": \"")
          .append("x".repeat(1990))
          .append("\"");
    }
    CanvasNode email = node("email", config.append("}").toString());
    CanvasNode fits = node("email", "{\"subject\": \"" + "x".repeat(1990) + "\"}");

    assertThat(inputOf(email))
        .isEqualTo(
            "{\"omitted\":\"the input is too large to log: over the 64 KiB a log entry keeps\",\"bytes\":80000}");
    assertThat(inputOf(fits))
        .isEqualTo("{\"config\":{\"subject\":\"" + "x".repeat(1990) + "\"},\"read\":{}}");
  }
}
