package com.crmflow.api.testrun;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The test run endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code TestRunApiTest}).
 */
class TestRunControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of(
            "POST", "/api/v1/sequences/" + ANY_ID + "/test-runs", "{}", Scope.SEQUENCES_WRITE));
  }
}
