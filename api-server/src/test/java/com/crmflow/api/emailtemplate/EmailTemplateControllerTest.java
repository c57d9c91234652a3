package com.crmflow.api.emailtemplate;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The email template endpoints' own decisions, in the slice of the web layer: the scope each needs
 * (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they
 * store is the subject of the full-service tests ({@code EmailTemplateApiTest} and others).
 */
class EmailTemplateControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/email-templates", null, Scope.SEQUENCES_READ),
        Arguments.of("GET", "/api/v1/email-templates/" + ANY_ID, null, Scope.SEQUENCES_READ),
        Arguments.of("POST", "/api/v1/email-templates", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("PATCH", "/api/v1/email-templates/" + ANY_ID, "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("DELETE", "/api/v1/email-templates/" + ANY_ID, null, Scope.SEQUENCES_WRITE));
  }
}
