package com.crmflow.api.flow;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each rule of both tiers, on a canvas that breaks it. */
class CanvasValidationTest extends ApiTest {

  private static Map<String, Object> single(String type, Map<String, Object> config) {
    return canvas(List.of(node("n1", type, config)), List.of());
  }

  static Stream<Arguments> structuralRules() {
    List<Map<String, Object>> tooMany = new ArrayList<>();
    for (int i = 0; i < 201; i++) {
      tooMany.add(node("n" + i, "delay", Map.of("delayDays", 1)));
    }
    return Stream.of(
        Arguments.of("unknown node type", single("teleport", Map.of()), "nodes.n1.type"),
        Arguments.of("no node type", single(null, Map.of()), "nodes.n1.type"),
        Arguments.of(
            "number of wrong type",
            single("delay", Map.of("delayDays", "two")),
            "nodes.n1.data.config.delayDays"),
        Arguments.of(
            "negative delay",
            single("delay", Map.of("delayHours", -1)),
            "nodes.n1.data.config.delayHours"),
        Arguments.of(
            "method outside enum",
            single("http_request", Map.of("method", "FETCH")),
            "nodes.n1.data.config.method"),
        Arguments.of(
            "headers not strings",
            single("http_request", Map.of("headers", Map.of("X", 1))),
            "nodes.n1.data.config.headers"),
        Arguments.of(
            "header name with a space",
            single("http_request", Map.of("headers", Map.of("Cookie ", "session=1"))),
            "nodes.n1.data.config.headers"),
        Arguments.of(
            "header name empty",
            single("http_request", Map.of("headers", Map.of("", "x"))),
            "nodes.n1.data.config.headers"),
        Arguments.of(
            "time not HH:mm",
            single("schedule_trigger", Map.of("time", "25:00")),
            "nodes.n1.data.config.time"),
        Arguments.of(
            "unknown timezone",
            single("schedule_trigger", Map.of("timezone", "Mars/Base")),
            "nodes.n1.data.config.timezone"),
        Arguments.of(
            "cron with 6 fields",
            single("schedule_trigger", Map.of("customCron", "0 0 9 * * 1")),
            "nodes.n1.data.config.customCron"),
        Arguments.of(
            "invalid cron",
            single("schedule_trigger", Map.of("customCron", "99 * * * *")),
            "nodes.n1.data.config.customCron"),
        Arguments.of(
            "day of week 7",
            single("schedule_trigger", Map.of("daysOfWeek", List.of(1, 7))),
            "nodes.n1.data.config.daysOfWeek"),
        Arguments.of(
            "schedule type",
            single("schedule_trigger", Map.of("scheduleType", "hourly")),
            "nodes.n1.data.config.scheduleType"),
        Arguments.of(
            "unknown event",
            single("crm_event_trigger", Map.of("eventType", "contact.exploded")),
            "nodes.n1.data.config.eventType"),
        Arguments.of(
            "entityType",
            single("crm_update", Map.of("entityType", "note")),
            "nodes.n1.data.config.entityType"),
        Arguments.of(
            "create entityType",
            single("create_record", Map.of("entityType", "invoice")),
            "nodes.n1.data.config.entityType"),
        Arguments.of(
            "transformType",
            single("data_transform", Map.of("transformType", "reduce")),
            "nodes.n1.data.config.transformType"),
        Arguments.of(
            "templateId not uuid",
            single("email", Map.of("templateId", "welcome")),
            "nodes.n1.data.config.templateId"),
        Arguments.of(
            "operator",
            single("condition", Map.of("operator", "roughly")),
            "nodes.n1.data.config.operator"),
        Arguments.of(
            "continueOnFailure",
            single("http_request", Map.of("continueOnFailure", "yes")),
            "nodes.n1.data.config.continueOnFailure"),
        Arguments.of(
            "position shape",
            Map.of(
                "nodes",
                List.of(
                    Map.of(
                        "id",
                        "n1",
                        "type",
                        "delay",
                        "position",
                        Map.of("x", "left"),
                        "data",
                        Map.of("label", "x", "config", Map.of()))),
                "edges",
                List.of()),
            "nodes.n1.position"),
        Arguments.of(
            "config not an object",
            Map.of(
                "nodes",
                List.of(
                    Map.of(
                        "id",
                        "n1",
                        "type",
                        "delay",
                        "position",
                        Map.of("x", 1, "y", 1),
                        "data",
                        Map.of("label", "x", "config", List.of()))),
                "edges",
                List.of()),
            "nodes.n1.data.config"),
        Arguments.of(
            "duplicate node ids",
            canvas(
                List.of(node("n1", "delay", Map.of()), node("n1", "email", Map.of())), List.of()),
            "nodes.n1.id"),
        Arguments.of(
            "edge to missing node",
            canvas(List.of(node("n1", "delay", Map.of())), List.of(edge("e1", "n1", "ghost"))),
            "edges.e1.target"),
        Arguments.of(
            "edge from missing node",
            canvas(List.of(node("n1", "delay", Map.of())), List.of(edge("e1", "ghost", "n1"))),
            "edges.e1.source"),
        Arguments.of(
            "self loop",
            canvas(List.of(node("n1", "delay", Map.of())), List.of(edge("e1", "n1", "n1"))),
            "edges.e1.target"),
        Arguments.of(
            "duplicate edge ids",
            canvas(
                List.of(
                    node("a", "delay", Map.of()),
                    node("b", "delay", Map.of()),
                    node("c", "delay", Map.of())),
                List.of(edge("e1", "a", "b"), edge("e1", "b", "c"))),
            "edges.e1.id"),
        Arguments.of(
            "edge type",
            canvas(
                List.of(node("a", "delay", Map.of()), node("b", "delay", Map.of())),
                List.of(Map.of("id", "e1", "source", "a", "target", "b", "type", "dotted"))),
            "edges.e1.type"),
        Arguments.of(
            "cycle",
            canvas(
                List.of(
                    node("a", "delay", Map.of()),
                    node("b", "delay", Map.of()),
                    node("c", "delay", Map.of())),
                List.of(edge("e1", "a", "b"), edge("e2", "b", "c"), edge("e3", "c", "a"))),
            "canvas"),
        Arguments.of(
            "two triggers",
            canvas(
                List.of(
                    node("t1", "webhook_trigger", Map.of()),
                    node("t2", "schedule_trigger", Map.of())),
                List.of()),
            "canvas"),
        Arguments.of(
            "trigger with incoming edge",
            canvas(
                List.of(node("a", "delay", Map.of()), node("t", "webhook_trigger", Map.of())),
                List.of(edge("e1", "a", "t"))),
            "edges.e1.target"),
        Arguments.of("too many nodes", canvas(tooMany, List.of()), "canvas"),
        Arguments.of(
            "config too large",
            single("email", Map.of("body", "x".repeat(20_000))),
            "nodes.n1.data.config"),
        Arguments.of(
            "unknown node field",
            Map.of(
                "nodes",
                List.of(
                    Map.of(
                        "id",
                        "n1",
                        "type",
                        "delay",
                        "position",
                        Map.of("x", 1, "y", 1),
                        "data",
                        Map.of("label", "x", "config", Map.of()),
                        "colour",
                        "red")),
                "edges",
                List.of()),
            "nodes[0].colour"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("structuralRules")
  void structuralRuleIs400NamingTheField(String rule, Map<String, Object> canvas, String field) {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), rule);
    ApiResponse response = tenant.api().put("/api/sequences/" + seq + "/canvas", canvas);
    assertThat(response.status()).as(response.toString()).isEqualTo(400);
    assertThat(response.at("/errors").valueStream().map(e -> e.get("field").asString()))
        .contains(field);
    assertThat(tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/version").asInt())
        .isZero();
  }

  static Stream<Arguments> completenessRules() {
    Map<String, Object> hook = node("in", "webhook_trigger", Map.of());
    return Stream.of(
        Arguments.of(
            "http_request without url",
            "automation",
            canvas(
                List.of(hook, node("n1", "http_request", Map.of("method", "GET"))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n1.data.config.url"),
        Arguments.of(
            "schedule without time",
            "automation",
            canvas(
                List.of(
                    node(
                        "s",
                        "schedule_trigger",
                        Map.of("scheduleType", "daily", "timezone", "UTC")),
                    node("n1", "delay", Map.of("delayDays", 1))),
                List.of(edge("e1", "s", "n1"))),
            "nodes.s.data.config.time"),
        Arguments.of(
            "weekly without days",
            "automation",
            canvas(
                List.of(
                    node(
                        "s",
                        "schedule_trigger",
                        Map.of("scheduleType", "weekly", "time", "09:00", "timezone", "UTC")),
                    node("n1", "delay", Map.of("delayDays", 1))),
                List.of(edge("e1", "s", "n1"))),
            "nodes.s.data.config.daysOfWeek"),
        Arguments.of(
            "custom without cron",
            "automation",
            canvas(
                List.of(
                    node(
                        "s",
                        "schedule_trigger",
                        Map.of("scheduleType", "custom", "time", "09:00", "timezone", "UTC")),
                    node("n1", "delay", Map.of("delayDays", 1))),
                List.of(edge("e1", "s", "n1"))),
            "nodes.s.data.config.customCron"),
        Arguments.of(
            "event trigger without eventType",
            "automation",
            canvas(
                List.of(
                    node("t", "crm_event_trigger", Map.of()),
                    node("n1", "delay", Map.of("delayDays", 1))),
                List.of(edge("e1", "t", "n1"))),
            "nodes.t.data.config.eventType"),
        Arguments.of(
            "chat without channel",
            "automation",
            canvas(
                List.of(hook, node("n1", "chat_message", Map.of("messageTemplate", "hi"))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n1.data.config.channel"),
        Arguments.of(
            "crm_update without mappings",
            "automation",
            canvas(
                List.of(hook, node("n1", "crm_update", Map.of("entityType", "contact"))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n1.data.config.fieldMappings"),
        Arguments.of(
            "filter mapping shape",
            "automation",
            canvas(
                List.of(
                    hook,
                    node(
                        "n1",
                        "data_transform",
                        Map.of(
                            "transformType", "filter", "mappings", Map.of("source", "trigger")))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n1.data.config.mappings"),
        Arguments.of(
            "filter mapping without operator",
            "automation",
            canvas(
                List.of(
                    hook,
                    node(
                        "n1",
                        "data_transform",
                        Map.of(
                            "transformType",
                            "filter",
                            "mappings",
                            Map.of("source", "trigger", "field", "x", "value", 1)))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n1.data.config.mappings"),
        Arguments.of(
            "condition without operator",
            "automation",
            canvas(
                List.of(
                    hook,
                    node("c", "condition", Map.of("field", "{{trigger.x}}")),
                    node("n1", "delay", Map.of("delayDays", 1))),
                List.of(edge("e1", "in", "c"), edge("e2", "c", "n1", "true"))),
            "nodes.c.data.config.operator"),
        Arguments.of(
            "email without subject or template",
            "automation",
            canvas(
                List.of(hook, node("n1", "email", Map.of("bodyHint", "hi"))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n1.data.config.subject"),
        Arguments.of(
            "zero delay",
            "automation",
            canvas(
                List.of(hook, node("n1", "delay", Map.of("delayDays", 0))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n1.data.config.delayDays"),
        Arguments.of(
            "automation without trigger",
            "automation",
            canvas(List.of(node("n1", "delay", Map.of("delayDays", 1))), List.of()),
            "canvas"),
        Arguments.of(
            "unreachable node",
            "automation",
            canvas(
                List.of(
                    hook,
                    node("n1", "delay", Map.of("delayDays", 1)),
                    node("n2", "delay", Map.of("delayDays", 1))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n2"),
        Arguments.of(
            "sequence with two first steps",
            "sequence",
            canvas(
                List.of(
                    node("n1", "delay", Map.of("delayDays", 1)),
                    node("n2", "delay", Map.of("delayDays", 1))),
                List.of()),
            "canvas"),
        Arguments.of(
            "condition edge unlabelled",
            "automation",
            canvas(
                List.of(
                    hook,
                    node(
                        "c", "condition", Map.of("field", "{{trigger.x}}", "operator", "is_empty")),
                    node("n1", "delay", Map.of("delayDays", 1))),
                List.of(edge("e1", "in", "c"), edge("e2", "c", "n1"))),
            "edges.e2.label"),
        Arguments.of(
            "variable of a second http_request that does not precede",
            "automation",
            canvas(
                List.of(
                    hook,
                    node("h1", "http_request", Map.of("method", "GET", "url", "https://a.example")),
                    node(
                        "h2",
                        "http_request",
                        Map.of(
                            "method",
                            "POST",
                            "url",
                            "https://b.example/{{http_request_2.body.x}}"))),
                List.of(edge("e1", "in", "h1"), edge("e2", "h1", "h2"))),
            "nodes.h2.data.config.url"),
        Arguments.of(
            "variable of an unknown source",
            "automation",
            canvas(
                List.of(
                    hook,
                    node(
                        "n1",
                        "chat_message",
                        Map.of("channel", "#a", "messageTemplate", "{{weather.today}}"))),
                List.of(edge("e1", "in", "n1"))),
            "nodes.n1.data.config.messageTemplate"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("completenessRules")
  void completenessRuleBlocksActivationWith422(
      String rule, String flowType, Map<String, Object> canvas, String field) {
    var tenant = newTenant();
    String seq =
        flowType.equals("automation")
            ? SequenceSupport.automation(tenant.api(), rule)
            : SequenceSupport.sequence(tenant.api(), rule);
    ApiResponse saved = tenant.api().put("/api/sequences/" + seq + "/canvas", canvas);
    assertThat(saved.status()).as("a half-built canvas can be saved: " + saved).isEqualTo(200);
    ApiResponse activation =
        tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active"));
    assertThat(activation.status()).as(activation.toString()).isEqualTo(422);
    assertThat(activation.at("/errors").valueStream().map(e -> e.get("field").asString()))
        .contains(field);
    ApiResponse validated = tenant.api().post("/api/sequences/" + seq + "/validate", Map.of());
    assertThat(validated.at("/valid").asBoolean()).isFalse();
  }
}
