package com.crmflow.api.flow;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The sequence steps endpoints' own decisions, in the slice of the web layer: the scope each needs
 * (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they
 * store is the subject of the full-service tests ({@code LinearStepsTest} and others).
 */
class SequenceStepsControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/sequences/" + ANY_ID + "/steps", null, Scope.SEQUENCES_READ),
        Arguments.of("PUT", "/api/v1/sequences/" + ANY_ID + "/steps", "{}", Scope.SEQUENCES_WRITE));
  }
}
