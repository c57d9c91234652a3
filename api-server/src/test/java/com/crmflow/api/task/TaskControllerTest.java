package com.crmflow.api.task;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The task endpoints' own decisions, in the slice of the web layer: the scope each needs (the
 * inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they store
 * is the subject of the full-service tests ({@code NoteAndTaskApiTest} and others).
 */
class TaskControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/tasks", null, Scope.TASKS_READ),
        Arguments.of("POST", "/api/v1/tasks", "{}", Scope.TASKS_WRITE),
        Arguments.of("PATCH", "/api/v1/tasks/" + ANY_ID, "{}", Scope.TASKS_WRITE));
  }
}
