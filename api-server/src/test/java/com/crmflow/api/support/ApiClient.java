package com.crmflow.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/** Real HTTP against the running service (JDK HttpClient), one bearer token per client. */
public final class ApiClient {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final String baseUrl;
  private final String bearer;
  private final Map<String, String> extraHeaders;
  private final Duration timeout;

  public ApiClient(String baseUrl, String bearer) {
    this(baseUrl, bearer, Map.of(), Duration.ofSeconds(30));
  }

  private ApiClient(
      String baseUrl, String bearer, Map<String, String> extraHeaders, Duration timeout) {
    this.baseUrl = baseUrl;
    this.bearer = bearer;
    this.extraHeaders = extraHeaders;
    this.timeout = timeout;
  }

  /** The same client, waiting this long for each answer (30 s unless set). */
  public ApiClient withTimeout(Duration answerTimeout) {
    return new ApiClient(baseUrl, bearer, extraHeaders, answerTimeout);
  }

  /** The same client with one more header on every request. */
  public ApiClient withHeader(String name, String value) {
    Map<String, String> headers = new LinkedHashMap<>(extraHeaders);
    headers.put(name, value);
    return new ApiClient(baseUrl, bearer, headers, timeout);
  }

  public ApiResponse get(String path) {
    return send("GET", path, null, null);
  }

  public ApiResponse delete(String path) {
    return send("DELETE", path, null, null);
  }

  public ApiResponse post(String path, Object body) {
    return send("POST", path, json(body), "application/json");
  }

  public ApiResponse put(String path, Object body) {
    return send("PUT", path, json(body), "application/json");
  }

  public ApiResponse patch(String path, Object body) {
    return send("PATCH", path, json(body), "application/json");
  }

  /** Sends raw text with the given content type (null: no Content-Type header). */
  public ApiResponse send(String method, String path, String body, String contentType) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(timeout);
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    extraHeaders.forEach(request::header);
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> response =
          HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new ApiResponse(
          response.statusCode(), response.headers(), response.body(), parse(response.body()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public static String json(Object body) {
    if (body == null) {
      return null;
    }
    return body instanceof String s ? s : JSON.writeValueAsString(body);
  }

  private static JsonNode parse(String body) {
    if (body == null || body.isBlank()) {
      return MissingNode.getInstance();
    }
    try {
      return JSON.readTree(body);
    } catch (RuntimeException e) {
      return MissingNode.getInstance();
    }
  }
}
