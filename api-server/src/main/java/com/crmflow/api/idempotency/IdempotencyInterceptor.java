package com.crmflow.api.idempotency;

import com.crmflow.api.access.Caller;
import com.crmflow.api.idempotency.IdempotentRequestRepository.Existing;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.RequestBodyTooLargeException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.util.ContentCachingResponseWrapper;
import org.springframework.web.util.WebUtils;

/**
 * Idempotency-Key on POST requests of the authenticated API: a client that retries a create (its
 * connection dropped before the answer) gets the first request's answer instead of a second record.
 * Keys are per API key (stored as {@code <api key id>/<key>} under the tenant), so another key of
 * the tenant that sends the same key gets its own answer, never this one's, and kept {@code
 * crm.idempotency.keep} (a day). The same key with another method, path or body is refused (422); a
 * repeat while the first request is still being handled gets 409. An answer of 5xx is not kept: the
 * key is freed and the request may be sent again. Runs after the API key and rate limit
 * interceptors.
 */
class IdempotencyInterceptor implements HandlerInterceptor {

  /** Set on a replayed answer. */
  static final String REPLAYED_HEADER = "Idempotent-Replayed";

  /** A claim older than this whose request never finished belonged to a process that stopped. */
  static final int ABANDONED_AFTER_SECONDS = 60;

  private static final Pattern VALID_KEY = Pattern.compile("[\\x21-\\x7e]{1,255}");
  private static final String CLAIMED = IdempotencyInterceptor.class.getName() + ".claimed";

  private final IdempotentRequestRepository requests;

  IdempotencyInterceptor(IdempotentRequestRepository requests) {
    this.requests = requests;
  }

  @Override
  public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
      throws IOException {
    IdempotencyFilter.ReadBody body =
        WebUtils.getNativeRequest(request, IdempotencyFilter.ReadBody.class);
    Caller caller = Caller.of(request);
    if (body == null || caller == null) {
      return true; // not a POST with the header, or not the authenticated API
    }
    String sent = request.getHeader(IdempotencyFilter.HEADER);
    if (!VALID_KEY.matcher(sent).matches()) {
      throw ApiException.badRequest(
          IdempotencyFilter.HEADER, "must be 1 to 255 visible ASCII characters");
    }
    String key = ofKey(caller, sent);
    String fingerprint;
    try {
      fingerprint = fingerprint(request, body.body());
    } catch (RequestBodyTooLargeException tooLarge) {
      throw ApiException.payloadTooLarge(tooLarge.maxBytes());
    }
    Optional<Existing> existing = Optional.empty();
    // a key freed by a failed first request between the claim and the read is claimed again
    for (int attempt = 0; attempt < 3 && existing.isEmpty(); attempt++) {
      if (requests.claim(caller.tenantId(), key, fingerprint, ABANDONED_AFTER_SECONDS)) {
        request.setAttribute(CLAIMED, key);
        return true;
      }
      existing = requests.find(caller.tenantId(), key);
    }
    if (existing.isEmpty()) {
      throw stillBeingHandled();
    }
    if (!existing.get().fingerprint().equals(fingerprint)) {
      throw ApiException.unprocessable(
          "This Idempotency-Key was used for another request (method, path or body); use a new"
              + " key for a new request.",
          List.of());
    }
    StoredAnswer first = existing.get().answer();
    if (first == null) {
      throw stillBeingHandled();
    }
    replay(first, response);
    return false;
  }

  @Override
  public void afterCompletion(
      HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
    String key = (String) request.getAttribute(CLAIMED);
    if (key == null) {
      return;
    }
    Caller caller = Caller.of(request);
    ContentCachingResponseWrapper answer =
        WebUtils.getNativeResponse(response, ContentCachingResponseWrapper.class);
    if (ex != null || answer == null || response.getStatus() >= 500) {
      requests.release(caller.tenantId(), key);
      return;
    }
    requests.complete(
        caller.tenantId(),
        key,
        new StoredAnswer(
            response.getStatus(), response.getContentType(), answer.getContentAsByteArray()));
  }

  /** The stored key: the caller's API key id, then the key it sent. */
  static String ofKey(Caller caller, String sent) {
    return caller.apiKeyId() + "/" + sent;
  }

  private static ApiException stillBeingHandled() {
    return ApiException.conflict(
        "A request with this Idempotency-Key is still being handled; send it again shortly.");
  }

  private static void replay(StoredAnswer answer, HttpServletResponse response) throws IOException {
    response.setStatus(answer.status());
    if (answer.contentType() != null) {
      response.setContentType(answer.contentType());
    }
    response.setHeader(REPLAYED_HEADER, "true");
    if (answer.body() != null) {
      response.getOutputStream().write(answer.body());
    }
  }

  /** The request as the key stands for it: method, path with query, and body. */
  private static String fingerprint(HttpServletRequest request, byte[] body) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      String target =
          request.getMethod()
              + " "
              + request.getRequestURI()
              + (request.getQueryString() == null ? "" : "?" + request.getQueryString())
              + "\n";
      sha256.update(target.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha256.digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}
