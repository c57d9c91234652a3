package com.crmflow.worker.activity;

import com.crmflow.workflow.run.HttpRequestActivities;
import com.crmflow.workflow.run.HttpRequestCommand;
import com.crmflow.workflow.run.HttpResponseData;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * http_request nodes over the JDK HttpClient. Sends {@code Idempotency-Key: <run id>:<node id>} so
 * a receiver can recognise retries. Network errors, 5xx and 429 are retried by Temporal with
 * backoff (429/503 honour Retry-After); other 4xx fail the node at once. Redirects are not
 * followed; bodies over 1 MiB are refused.
 */
@Component("httpRequestActivities")
public class HttpRequestActivitiesImpl implements HttpRequestActivities {

  static final int MAX_RESPONSE_BYTES = 1024 * 1024;
  private static final Set<String> HOP_BY_HOP =
      Set.of("connection", "content-length", "host", "transfer-encoding", "upgrade");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private final DestinationPolicy destinations;

  public HttpRequestActivitiesImpl(DestinationPolicy destinations) {
    this.destinations = destinations;
  }

  @Override
  public HttpResponseData send(HttpRequestCommand command) {
    URI uri = uri(command.url());
    String refusal = destinations.refusal(uri.getHost());
    if (refusal != null) {
      throw ApplicationFailure.newNonRetryableFailure(
          "refused to call " + uri.getHost() + ": " + refusal, FORBIDDEN_DESTINATION);
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(command.timeoutSeconds()));
    command
        .headers()
        .forEach(
            (name, value) -> {
              if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                request.header(name, value);
              }
            });
    request.header("Idempotency-Key", command.idempotencyKey());
    request.method(
        command.method(),
        command.body() == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(command.body(), StandardCharsets.UTF_8));
    HttpResponse<InputStream> response;
    byte[] body;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = response.body()) {
        body = in.readNBytes(MAX_RESPONSE_BYTES + 1);
      }
    } catch (IOException e) {
      throw ApplicationFailure.newFailureWithCause(
          "network error calling " + uri.getHost() + ": " + e, "NetworkError", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ApplicationFailure.newFailure("interrupted", "Interrupted");
    }
    if (body.length > MAX_RESPONSE_BYTES) {
      throw ApplicationFailure.newNonRetryableFailure(
          "response body larger than " + MAX_RESPONSE_BYTES + " bytes", "ResponseTooLarge");
    }
    int status = response.statusCode();
    String text = new String(body, StandardCharsets.UTF_8);
    if (status == 429 || status >= 500) {
      Duration retryAfter = retryAfter(response);
      throw ApplicationFailure.newBuilder()
          .setMessage("HTTP " + status + " from " + uri.getHost() + ": " + snippet(text))
          .setType("HttpServerError")
          .setNextRetryDelay(retryAfter)
          .build();
    }
    if (status >= 400) {
      throw ApplicationFailure.newNonRetryableFailure(
          "HTTP " + status + " from " + uri.getHost() + ": " + snippet(text), CLIENT_ERROR);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    response
        .headers()
        .map()
        .forEach((name, values) -> headers.put(name, String.join(", ", values)));
    return new HttpResponseData(status, headers, parse(text, response));
  }

  private static URI uri(String url) {
    try {
      URI uri = URI.create(url);
      if (uri.getHost() == null
          || !("http".equalsIgnoreCase(uri.getScheme())
              || "https".equalsIgnoreCase(uri.getScheme()))) {
        throw new IllegalArgumentException("not an absolute http(s) URL");
      }
      return uri;
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          "invalid url '" + url + "': " + e.getMessage(), CLIENT_ERROR);
    }
  }

  private static Object parse(String text, HttpResponse<?> response) {
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (type.toLowerCase(Locale.ROOT).contains("json") && !text.isBlank()) {
      try {
        return JSON.readValue(text, Object.class);
      } catch (IOException e) {
        return text;
      }
    }
    return text;
  }

  /** Retry-After in seconds (dates are rare for APIs; they fall back to the backoff). */
  private static Duration retryAfter(HttpResponse<?> response) {
    return response
        .headers()
        .firstValue("Retry-After")
        .filter(v -> v.trim().matches("\\d{1,5}"))
        .map(v -> Duration.ofSeconds(Long.parseLong(v.trim())))
        .orElse(null);
  }

  private static String snippet(String text) {
    return text.length() > 300 ? text.substring(0, 300) + "..." : text;
  }
}
