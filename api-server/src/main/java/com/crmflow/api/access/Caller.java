package com.crmflow.api.access;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;
import java.util.UUID;

/**
 * Who is calling: the authenticated API key and its tenant. Controllers take it as a parameter;
 * every repository call that reads or writes tenant data passes {@link #tenantId()}.
 */
public record Caller(UUID tenantId, UUID apiKeyId, Set<String> scopes, Integer rateLimitPerMinute) {

  /** The request attribute that holds the caller once its key is authenticated. */
  public static final String REQUEST_ATTRIBUTE = Caller.class.getName();

  /** The authenticated caller of this request, or null outside the authenticated API. */
  public static Caller of(HttpServletRequest request) {
    return (Caller) request.getAttribute(REQUEST_ATTRIBUTE);
  }

  public boolean has(Scope scope) {
    return scopes.contains(Scope.ALL) || scopes.contains(scope.value());
  }
}
