package com.crmflow.workflow.rules;

import static com.crmflow.workflow.run.Canvases.node;
import static com.crmflow.workflow.run.Canvases.transform;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.Canvas;
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
                transform(
                    "filter",
                    "filter",
                    Map.of("source", "http_request_2.body.items", "field", "status")),
                transform(
                    "merge",
                    "merge",
                    Map.of("sources", List.of("data_transform_1", "contact.fields")))),
            List.of());

    assertThat(CanvasRules.variablesRead(canvas))
        .contains("http_request_1", "trigger", "http_request_2", "data_transform_1", "contact")
        .doesNotContain("http_request_3", "data_transform_2");
  }
}
