package com.crmflow.worker.activity;

import com.crmflow.shared.outbound.CauseHeader;
import com.crmflow.shared.outbound.ForbiddenDestinationException;
import com.crmflow.shared.outbound.NetworkErrors;
import com.crmflow.shared.outbound.OutboundCallObserver;
import com.crmflow.shared.outbound.OutboundHttpClient;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.shared.text.NulCharacters;
import com.crmflow.shared.tracing.CurrentTrace;
import com.crmflow.workflow.action.HttpRequestActivities;
import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.action.HttpResponseData;
import com.crmflow.workflow.node.NodeSecrets;
import com.crmflow.workflow.template.TemplateReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * http_request nodes over the JDK HttpClient. Sends an {@code Idempotency-Key} that is the same on
 * every attempt of the node, so a receiver can recognise retries, and the run's {@link CauseHeader}
 * token, so that a call of the service's own public trigger or API continues this run's chain of
 * causes; neither tells the receiver the run. Network errors, 5xx and 429 are retried by Temporal
 * with backoff (429/503 honour Retry-After); other 4xx fail the node at once. Redirects are not
 * followed; bodies over 1 MiB are refused. Calls go through {@link OutboundHttpClient}, which
 * refuses internal addresses when it dials.
 */
@Component("httpRequestActivities")
public class HttpRequestActivitiesImpl implements HttpRequestActivities {

  static final int MAX_RESPONSE_BYTES = 1024 * 1024;
  private static final Set<String> HOP_BY_HOP =
      Set.of("connection", "content-length", "host", "transfer-encoding", "upgrade");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final OutboundHttpClient http;
  private final SecretCipher secrets;
  private final List<OutboundCallObserver> observers;
  private final CauseHeader causes;

  /**
   * @param observers none in the worker application; api-server's trigger admission
   */
  public HttpRequestActivitiesImpl(
      OutboundHttpClient http,
      SecretCipher secrets,
      CauseHeader causes,
      ObjectProvider<OutboundCallObserver> observers) {
    this.http = http;
    this.secrets = secrets;
    this.causes = causes;
    this.observers = observers.orderedStream().toList();
  }

  @Override
  public HttpResponseData send(HttpRequestCommand command) {
    try {
      return call(command);
    } catch (ApplicationFailure failure) {
      // the failed attempt's span, which the node's log entry names when the call fails for good
      String span = CurrentTrace.spanId().orElse(null);
      if (span == null) {
        throw failure;
      }
      throw ApplicationFailure.newBuilder()
          .setMessage(failure.getOriginalMessage())
          .setType(failure.getType())
          .setNonRetryable(failure.isNonRetryable())
          .setNextRetryDelay(failure.getNextRetryDelay())
          .setCategory(failure.getCategory())
          .setCause(failure.getCause())
          .setDetails(span)
          .build();
    }
  }

  private HttpResponseData call(HttpRequestCommand command) {
    URI uri = uri(command.url());
    Map<String, String> headers = new LinkedHashMap<>();
    command
        .headers()
        .forEach(
            (name, value) -> {
              if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                headers.put(
                    name, NodeSecrets.isSealed(value) ? unsealed(command, name, value) : value);
              }
            });
    // the workflow names the call "<run id>:<node id>"; the receiver learns neither
    UUID tenant = UUID.fromString(command.tenantId());
    headers.keySet().removeIf(name -> name.equalsIgnoreCase("Idempotency-Key"));
    headers.put("Idempotency-Key", causes.idempotencyKey(tenant, command.idempotencyKey()));
    CauseHeader.put(
        headers,
        CauseHeader.Cause.parse(command.idempotencyKey())
            .flatMap(run -> causes.value(tenant, run))
            .orElse(null));
    OutboundHttpClient.Response response;
    observers.forEach(observer -> observer.callStarted(command.idempotencyKey()));
    try {
      response =
          http.send(
              command.method(),
              uri,
              headers,
              command.body() == null ? null : command.body().getBytes(StandardCharsets.UTF_8),
              Duration.ofSeconds(command.timeoutSeconds()),
              MAX_RESPONSE_BYTES);
    } catch (ForbiddenDestinationException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          "refused to call " + uri.getHost() + ": " + e.getMessage(), FORBIDDEN_DESTINATION);
    } catch (IOException e) {
      throw ApplicationFailure.newFailureWithCause(
          NetworkErrors.describe(e, uri.getHost()), "NetworkError", e);
    } finally {
      observers.forEach(observer -> observer.callEnded(command.idempotencyKey()));
    }
    if (response.truncated()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "response body larger than " + MAX_RESPONSE_BYTES + " bytes", "ResponseTooLarge");
    }
    int status = response.status();
    String text = NulCharacters.replaced(new String(response.body(), StandardCharsets.UTF_8));
    if (status == 429 || status >= 500) {
      throw ApplicationFailure.newBuilder()
          .setMessage("HTTP " + status + " from " + uri.getHost() + ": " + snippet(text))
          .setType("HttpServerError")
          .setNextRetryDelay(retryAfter(response))
          .build();
    }
    if (status >= 400) {
      throw ApplicationFailure.newNonRetryableFailure(
          "HTTP " + status + " from " + uri.getHost() + ": " + snippet(text), CLIENT_ERROR);
    }
    Map<String, String> responseHeaders = new LinkedHashMap<>();
    response
        .headers()
        .forEach(
            (name, values) ->
                responseHeaders.put(name, NulCharacters.replaced(String.join(", ", values))));
    // this activity's span, the parent of the call's: the node's log entry names it
    return new HttpResponseData(
        status, responseHeaders, parse(text, response), CurrentTrace.spanId().orElse(null));
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

  private static Object parse(String text, OutboundHttpClient.Response response) {
    String type = response.header("Content-Type").orElse("");
    if (type.toLowerCase(Locale.ROOT).contains("json") && !text.isBlank()) {
      try {
        // a JSON string may still spell the character as an escape
        return NulCharacters.replacedIn(JSON.readValue(text, Object.class), text);
      } catch (IOException e) {
        return text;
      }
    }
    return text;
  }

  /** Retry-After in seconds (dates are rare for APIs; they fall back to the backoff). */
  private static Duration retryAfter(OutboundHttpClient.Response response) {
    return response
        .header("Retry-After")
        .filter(v -> v.trim().matches("\\d{1,5}"))
        .map(v -> Duration.ofSeconds(Long.parseLong(v.trim())))
        .orElse(null);
  }

  private static String snippet(String text) {
    return text.length() > 300 ? text.substring(0, 300) + "..." : text;
  }

  /**
   * The plain text of a sealed credential header, its variables filled in from the values the
   * workflow resolved. A secret this worker cannot unseal fails the node at once: retrying does not
   * give it the key.
   */
  private String unsealed(HttpRequestCommand command, String header, String sealed) {
    String plain;
    try {
      plain = secrets.unseal(UUID.fromString(command.tenantId()), sealed);
    } catch (IllegalStateException | IllegalArgumentException | NullPointerException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          "the secret of header " + header + " cannot be read: " + e.getMessage(),
          "SecretUnreadable");
    }
    Map<String, String> variables =
        command.sealedVariables() == null ? Map.of() : command.sealedVariables();
    Matcher m = TemplateReference.VARIABLE.matcher(plain);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(variables.getOrDefault(m.group(), "")));
    }
    m.appendTail(out);
    return out.toString();
  }
}
