package com.crmflow.api.account;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The account endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code AccountApiTest} and others).
 */
class AccountControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/accounts", null, Scope.ACCOUNTS_READ),
        Arguments.of("GET", "/api/v1/accounts/" + ANY_ID, null, Scope.ACCOUNTS_READ),
        Arguments.of("POST", "/api/v1/accounts", "{}", Scope.ACCOUNTS_WRITE),
        Arguments.of("PATCH", "/api/v1/accounts/" + ANY_ID, "{}", Scope.ACCOUNTS_WRITE));
  }
}
