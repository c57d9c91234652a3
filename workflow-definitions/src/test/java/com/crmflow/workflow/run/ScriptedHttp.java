package com.crmflow.workflow.run;

import com.crmflow.workflow.action.HttpRequestActivities;
import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.action.HttpResponseData;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An http_request activity that fails its first {@code failures} attempts, then answers 200. A URL
 * with "/refused" gets a 404, one with "/slow" waits for {@link #slowAnswer} first, and one with
 * "/large" answers {@code {blob}}, a string of {@link #LARGE_BLOB} characters.
 */
class ScriptedHttp implements HttpRequestActivities {

  /** Below http_request's 1 MiB cap, as a real answer would be. */
  static final int LARGE_BLOB = 900_000;

  final List<HttpRequestCommand> calls = new CopyOnWriteArrayList<>();
  final CompletableFuture<Void> slowAnswer = new CompletableFuture<>();

  /** A permit for each "/slow" call that has started waiting. */
  final Semaphore slowCallsWaiting = new Semaphore(0);

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
    if (command.url().contains("/slow")) {
      slowCallsWaiting.release();
      try {
        slowAnswer.get(30, TimeUnit.SECONDS);
      } catch (InterruptedException | ExecutionException | TimeoutException e) {
        throw ApplicationFailure.newFailure("no slow answer: " + e, "HttpServerError");
      }
    }
    if (failuresLeft.getAndDecrement() > 0) {
      throw ApplicationFailure.newFailure("HTTP 503 from peer", "HttpServerError");
    }
    if (command.url().contains("/large")) {
      return new HttpResponseData(
          200, Map.of("content-type", "application/json"), Map.of("blob", "x".repeat(LARGE_BLOB)));
    }
    return new HttpResponseData(
        200,
        Map.of("content-type", "application/json"),
        Map.of("id", 7, "items", List.of(Map.of("status", "active"))));
  }
}
