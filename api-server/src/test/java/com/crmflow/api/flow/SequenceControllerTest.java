package com.crmflow.api.flow;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The sequence endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code SequenceApiTest} and others).
 */
class SequenceControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/sequences", null, Scope.SEQUENCES_READ),
        Arguments.of("GET", "/api/v1/sequences/" + ANY_ID, null, Scope.SEQUENCES_READ),
        Arguments.of("POST", "/api/v1/sequences", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("PATCH", "/api/v1/sequences/" + ANY_ID, "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("DELETE", "/api/v1/sequences/" + ANY_ID, null, Scope.SEQUENCES_WRITE),
        Arguments.of(
            "POST", "/api/v1/sequences/" + ANY_ID + "/duplicate", "{}", Scope.SEQUENCES_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/sequences?status=gone", null, "status", null),
        Arguments.of("GET", "/api/v1/sequences?flow_type=robot", null, "flow_type", null),
        Arguments.of("GET", "/api/v1/sequences?q=" + "x".repeat(201), null, "q", null));
  }
}
