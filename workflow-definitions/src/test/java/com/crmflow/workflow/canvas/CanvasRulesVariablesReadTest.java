package com.crmflow.workflow.canvas;

import static com.crmflow.workflow.run.Canvases.node;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanvasRulesVariablesReadTest {

  @Test
  void templatesAndDataTransformPathsNameTheVariablesRead() {
    Canvas canvas =
        new Canvas(
            List.of(
                node("hook", "webhook_trigger", Map.of()),
                node(
                    "call",
                    "http_request",
                    Map.of(
                        "url",
                        "https://example.com/{{ http_request_1.body.id }}",
                        "headers",
                        Map.of("X-Id", "{{trigger.id}}"))),
                node(
                    "filter",
                    "data_transform",
                    Map.of(
                        "transformType",
                        "filter",
                        "mappings",
                        Map.of("source", "http_request_2.body.items", "field", "status"))),
                node(
                    "merge",
                    "data_transform",
                    Map.of(
                        "transformType",
                        "merge",
                        "mappings",
                        Map.of("sources", List.of("data_transform_1", "contact.fields"))))),
            List.of());

    assertThat(CanvasRules.variablesRead(canvas))
        .contains("http_request_1", "trigger", "http_request_2", "data_transform_1", "contact")
        .doesNotContain("http_request_3", "data_transform_2");
  }
}
