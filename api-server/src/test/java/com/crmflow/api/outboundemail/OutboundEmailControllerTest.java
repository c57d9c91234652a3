package com.crmflow.api.outboundemail;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The outbound email endpoints' own decisions, in the slice of the web layer: the scope each needs
 * (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they
 * store is the subject of the full-service tests ({@code SmtpEmailTest} and others).
 */
class OutboundEmailControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/outbound-emails", null, Scope.AUTOMATION_RUNS_READ));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/outbound-emails?run_id=abc", null, "run_id", null));
  }
}
