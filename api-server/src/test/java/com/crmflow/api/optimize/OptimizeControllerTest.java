package com.crmflow.api.optimize;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The optimize endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code OptimizeApiTest} and others).
 */
class OptimizeControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of(
            "POST", "/api/sequences/" + ANY_ID + "/optimize", null, Scope.SEQUENCES_WRITE));
  }
}
