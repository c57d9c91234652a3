package com.crmflow.workflow.run;

import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** An http_request activity that fails its first {@code failures} attempts, then answers 200. */
class ScriptedHttp implements HttpRequestActivities {

  final List<HttpRequestCommand> calls = new CopyOnWriteArrayList<>();
  private final AtomicInteger failuresLeft;

  ScriptedHttp(int failures) {
    this.failuresLeft = new AtomicInteger(failures);
  }

  @Override
  public HttpResponseData send(HttpRequestCommand command) {
    calls.add(command);
    if (command.url().contains("/refused")) {
      throw ApplicationFailure.newNonRetryableFailure("HTTP 404 from peer", "HttpClientError");
    }
    if (failuresLeft.getAndDecrement() > 0) {
      throw ApplicationFailure.newFailure("HTTP 503 from peer", "HttpServerError");
    }
    return new HttpResponseData(
        200,
        Map.of("content-type", "application/json"),
        Map.of("id", 7, "items", List.of(Map.of("status", "active"))));
  }
}
