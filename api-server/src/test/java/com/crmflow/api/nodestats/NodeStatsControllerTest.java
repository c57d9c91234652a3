package com.crmflow.api.nodestats;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The node statistics endpoints' own decisions, in the slice of the web layer: the scope each needs
 * (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they
 * store is the subject of the full-service tests ({@code NodeStatsApiTest}).
 */
class NodeStatsControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of(
            "GET", "/api/sequences/" + ANY_ID + "/stats", null, Scope.AUTOMATION_RUNS_READ));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.of(
        Arguments.of(
            "GET",
            "/api/sequences/" + ANY_ID + "/stats?since=yesterday",
            null,
            "since",
            "ISO-8601"));
  }
}
