package com.crmflow.api.flow;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The canvas, node, edge and version endpoints' own decisions, in the slice of the web layer: the
 * scope each needs (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no
 * store. What they store is the subject of the full-service tests ({@code CanvasApiTest} and
 * others).
 */
class CanvasControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/canvas", null, Scope.SEQUENCES_READ),
        Arguments.of("PUT", "/api/sequences/" + ANY_ID + "/canvas", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/nodes", null, Scope.SEQUENCES_READ),
        Arguments.of("POST", "/api/sequences/" + ANY_ID + "/nodes", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("PATCH", "/api/sequences/" + ANY_ID + "/nodes/n", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of(
            "DELETE", "/api/sequences/" + ANY_ID + "/nodes/n", null, Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/edges", null, Scope.SEQUENCES_READ),
        Arguments.of("POST", "/api/sequences/" + ANY_ID + "/edges", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of(
            "DELETE", "/api/sequences/" + ANY_ID + "/edges/e", null, Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/versions", null, Scope.SEQUENCES_READ),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/versions/1", null, Scope.SEQUENCES_READ),
        Arguments.of(
            "POST",
            "/api/sequences/" + ANY_ID + "/versions/1/restore",
            null,
            Scope.SEQUENCES_WRITE),
        Arguments.of("POST", "/api/sequences/" + ANY_ID + "/validate", null, Scope.SEQUENCES_READ));
  }
}
