package com.crmflow.api.enrollment;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The enrollment endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code EnrollmentApiTest} and others).
 */
class EnrollmentControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("POST", "/api/v1/sequences/enroll", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("POST", "/api/v1/sequences/unenroll", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of(
            "GET", "/api/v1/sequences/" + ANY_ID + "/enrollments", null, Scope.SEQUENCES_READ),
        Arguments.of(
            "POST",
            "/api/v1/sequences/" + ANY_ID + "/enrollments/bulk",
            "{}",
            Scope.SEQUENCES_WRITE),
        Arguments.of(
            "GET",
            "/api/v1/sequences/" + ANY_ID + "/enrollments/bulk/" + ANY_ID,
            null,
            Scope.SEQUENCES_READ));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.of(
        Arguments.of("POST", "/api/v1/sequences/enroll", "null", "body", "must be a JSON object"),
        Arguments.of("POST", "/api/v1/sequences/enroll", "[]", "body", "must be a JSON object"),
        Arguments.of(
            "GET", "/api/v1/sequences/" + ANY_ID + "/enrollments?limit=0", null, "limit", null),
        Arguments.of(
            "GET", "/api/v1/sequences/" + ANY_ID + "/enrollments?offset=x", null, "offset", null),
        Arguments.of(
            "GET",
            "/api/v1/sequences/" + ANY_ID + "/enrollments?status=gone",
            null,
            "status",
            null));
  }
}
