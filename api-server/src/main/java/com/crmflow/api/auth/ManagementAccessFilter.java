package com.crmflow.api.auth;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.RequestPaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Guards the management endpoints served on the API's port: {@code /actuator/health} (and its
 * probes) answers anyone, without details; every other endpoint ({@code metrics}, {@code
 * prometheus}, {@code info}, the index) takes {@code Authorization: Bearer <crm.admin-token>},
 * compared in constant time (a refusal is kept as a security event, as the admin API's are), and
 * does not exist (404) while no admin token is set. A separate {@code management.server.port} is a
 * server of its own that this filter does not guard: bind it to an address only the scraper
 * reaches.
 */
class ManagementAccessFilter extends OncePerRequestFilter {

  static final String BASE = "/actuator";
  private static final String HEALTH = BASE + "/health";

  private final CrmProperties properties;
  private final HandlerExceptionResolver exceptionResolver;
  private final BiConsumer<HttpServletRequest, String> securityEvents;

  /**
   * @param securityEvents keeps a refused call (401) with its reason
   */
  ManagementAccessFilter(
      CrmProperties properties,
      HandlerExceptionResolver exceptionResolver,
      BiConsumer<HttpServletRequest, String> securityEvents) {
    this.properties = properties;
    this.exceptionResolver = exceptionResolver;
    this.securityEvents = securityEvents;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    // the path the actuator's handler mapping matches, however the request spelled it
    return !RequestPaths.isUnder(request, BASE) || RequestPaths.isUnder(request, HEALTH);
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
    ApiException refused = refusal(authorization);
    if (refused != null) {
      if (refused.status() == HttpStatus.UNAUTHORIZED) {
        securityEvents.accept(
            request, authorization == null ? "no Authorization header" : "a wrong admin token");
      }
      exceptionResolver.resolveException(request, response, null, refused);
      return;
    }
    chain.doFilter(request, response);
  }

  private ApiException refusal(String authorization) {
    if (!properties.adminApiEnabled()) {
      return new ApiException(
          HttpStatus.NOT_FOUND,
          "Management endpoints other than health need crm.admin-token on this port.",
          List.of(),
          Map.of());
    }
    if (!AdminTokenInterceptor.holdsAdminToken(properties, authorization)) {
      return new ApiException(
          HttpStatus.UNAUTHORIZED,
          "The admin token is required: send it as 'Authorization: Bearer <crm.admin-token>'.",
          List.of(),
          Map.of(HttpHeaders.WWW_AUTHENTICATE, "Bearer"));
    }
    return null;
  }
}
