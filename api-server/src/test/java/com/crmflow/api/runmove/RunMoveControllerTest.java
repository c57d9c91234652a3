package com.crmflow.api.runmove;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The run move endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code RunMoveApiTest}).
 */
class RunMoveControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of(
            "POST", "/api/sequences/" + ANY_ID + "/runs/move", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of(
            "GET",
            "/api/sequences/" + ANY_ID + "/runs/moves/" + ANY_ID,
            null,
            Scope.SEQUENCES_READ),
        Arguments.of(
            "DELETE",
            "/api/sequences/" + ANY_ID + "/runs/moves/" + ANY_ID,
            null,
            Scope.SEQUENCES_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.of(
        Arguments.of(
            "POST",
            "/api/sequences/" + ANY_ID + "/runs/move",
            "{\"to_version\": \"two\"}",
            "to_version",
            "must be a version number"),
        Arguments.of(
            "POST",
            "/api/sequences/" + ANY_ID + "/runs/move",
            "{\"dry_run\": \"yes\"}",
            "dry_run",
            null),
        Arguments.of(
            "POST",
            "/api/sequences/" + ANY_ID + "/runs/move",
            "{\"to\": 2}",
            "to",
            "is not a field of a move"));
  }
}
