package com.crmflow.api.generate;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The generate endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code GenerateApiTest} and others).
 */
class GenerateControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of(
            "POST",
            "/api/sequences/" + ANY_ID + "/generate",
            "{\"prompt\":\"x\"}",
            Scope.SEQUENCES_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    String generate = "/api/sequences/" + ANY_ID + "/generate";
    return Stream.of(
        Arguments.of("POST", generate, "{\"prompt\": \"  \"}", "prompt", "is required"),
        Arguments.of("POST", generate, "{}", "prompt", "is required"),
        Arguments.of(
            "POST",
            generate,
            "{\"prompt\": \"" + "wait 1 day ".repeat(300) + "\"}",
            "prompt",
            "must be at most"));
  }
}
