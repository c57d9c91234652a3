package com.crmflow.api.nodetype;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The node type endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code NodeTypesTest} and others).
 */
class NodeTypeControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(Arguments.of("GET", "/api/v1/node-types", null, Scope.SEQUENCES_READ));
  }
}
