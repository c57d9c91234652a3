package com.crmflow.api.opportunity;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The opportunity endpoints' own decisions, in the slice of the web layer: the scope each needs
 * (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they
 * store is the subject of the full-service tests ({@code OpportunityApiTest} and others).
 */
class OpportunityControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/opportunities", null, Scope.OPPORTUNITIES_READ),
        Arguments.of("GET", "/api/v1/opportunities/" + ANY_ID, null, Scope.OPPORTUNITIES_READ),
        Arguments.of("POST", "/api/v1/opportunities", "{}", Scope.OPPORTUNITIES_WRITE),
        Arguments.of("PATCH", "/api/v1/opportunities/" + ANY_ID, "{}", Scope.OPPORTUNITIES_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    return largeListRefusals("/api/v1/opportunities");
  }
}
