package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Outbound HTTP for http_request nodes. Hosted by workflow-worker (task queue integrations). */
@ActivityInterface
public interface HttpRequestActivities {

  /** Failure type of a 4xx answer other than 429: not retried. */
  String CLIENT_ERROR = "HttpClientError";

  /** Failure type of a refused destination (private address): not retried. */
  String FORBIDDEN_DESTINATION = "ForbiddenDestination";

  @ActivityMethod(name = "http_request")
  HttpResponseData send(HttpRequestCommand command);
}
