package com.crmflow.api.run;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The automation run endpoints' own decisions, in the slice of the web layer: the scope each needs
 * (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they
 * store is the subject of the full-service tests ({@code AutomationRunApiTest} and others).
 */
class RunControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/automation-runs", null, Scope.AUTOMATION_RUNS_READ),
        Arguments.of("GET", "/api/v1/automation-runs/" + ANY_ID, null, Scope.AUTOMATION_RUNS_READ),
        Arguments.of(
            "POST",
            "/api/v1/automation-runs/" + ANY_ID + "/cancel",
            null,
            Scope.AUTOMATION_RUNS_WRITE),
        Arguments.of(
            "POST",
            "/api/v1/automation-runs/" + ANY_ID + "/retry",
            null,
            Scope.AUTOMATION_RUNS_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/automation-runs?status=sleeping", null, "status", null),
        Arguments.of("GET", "/api/v1/automation-runs?status=weird", null, "status", null));
  }
}
