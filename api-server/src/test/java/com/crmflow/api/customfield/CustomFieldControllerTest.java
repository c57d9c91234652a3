package com.crmflow.api.customfield;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The custom field endpoints' own decisions, in the slice of the web layer: the scope each needs
 * (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they
 * store is the subject of the full-service tests ({@code CustomFieldApiTest} and others).
 */
class CustomFieldControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/custom-fields", null, Scope.CUSTOM_FIELDS_READ),
        Arguments.of("POST", "/api/v1/custom-fields", "{}", Scope.CUSTOM_FIELDS_WRITE));
  }
}
