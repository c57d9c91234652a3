package com.crmflow.api.auth;

import com.crmflow.api.access.AnyScope;
import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.apikey.ApiKeyService;
import com.crmflow.api.audit.SecurityEvents;
import com.crmflow.api.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Authenticates {@code Authorization: Bearer <key>} on every {@code /api/} endpoint (the public
 * automation trigger is not routed through it) and checks the handler's {@link RequiresScope}. Runs
 * before the body is read, so an unauthenticated request learns nothing about its input.
 */
class ApiKeyInterceptor implements HandlerInterceptor {

  private final ApiKeyService apiKeys;

  ApiKeyInterceptor(ApiKeyService apiKeys) {
    this.apiKeys = apiKeys;
  }

  @Override
  public boolean preHandle(
      HttpServletRequest request, HttpServletResponse response, Object handler) {
    if (!(handler instanceof HandlerMethod method)) {
      return true; // static resources and unmatched paths: nothing to protect
    }
    if (HttpMethod.OPTIONS.matches(request.getMethod())
        && !method.hasMethodAnnotation(RequiresScope.class)) {
      return true; // Spring's own answer to OPTIONS (the Allow header): no data, no key needed
    }
    String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
    Caller caller =
        apiKeys
            .authenticate(authorization)
            .orElseThrow(
                () -> {
                  SecurityEvents.refused(request, whyNotAuthenticated(authorization));
                  return ApiException.unauthorized();
                });
    request.setAttribute(Caller.REQUEST_ATTRIBUTE, caller);
    if (method.hasMethodAnnotation(AnyScope.class)) {
      return true;
    }
    RequiresScope required = method.getMethodAnnotation(RequiresScope.class);
    if (required == null) {
      // fail closed: an endpoint without a declared scope is a programming error
      throw new IllegalStateException("no @RequiresScope on " + method);
    }
    if (!caller.has(required.value())) {
      SecurityEvents.refused(request, "the key lacks the scope " + required.value());
      throw ApiException.forbidden(
          "This API key lacks the scope '" + required.value() + "' needed for this endpoint.");
    }
    return true;
  }

  /** For the security event only: the answer does not tell these apart. */
  private static String whyNotAuthenticated(String authorization) {
    if (authorization == null) {
      return "no Authorization header";
    }
    if (!authorization.trim().toLowerCase(java.util.Locale.ROOT).startsWith("bearer ")) {
      return "the Authorization header holds no bearer key";
    }
    return "an unknown or revoked API key";
  }
}
