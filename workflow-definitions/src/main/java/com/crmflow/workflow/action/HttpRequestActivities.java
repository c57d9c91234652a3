package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import io.temporal.common.converter.DataConverterException;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;

/** Outbound HTTP for http_request nodes. Hosted by workflow-worker (task queue integrations). */
@ActivityInterface
public interface HttpRequestActivities {

  /** Failure type of a 4xx answer other than 429: not retried. */
  String CLIENT_ERROR = "HttpClientError";

  /** Failure type of a refused destination (private address): not retried. */
  String FORBIDDEN_DESTINATION = "ForbiddenDestination";

  /**
   * The call, answered with the span id of the activity that made it ({@link
   * HttpResponseData#spanId}); a failure carries that id as its one detail.
   */
  @ActivityMethod(name = "http_request")
  HttpResponseData send(HttpRequestCommand command);

  /** The span id a failure of {@link #send} carries, or null (none, or not in a trace). */
  static String spanOf(ActivityFailure failure) {
    if (!(failure.getCause() instanceof ApplicationFailure cause)
        || cause.getDetails().getSize() == 0) {
      return null;
    }
    try {
      return cause.getDetails().get(0, String.class);
    } catch (DataConverterException notASpan) {
      return null;
    }
  }
}
