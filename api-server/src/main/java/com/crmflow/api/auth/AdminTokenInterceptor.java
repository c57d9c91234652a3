package com.crmflow.api.auth;

import com.crmflow.api.audit.SecurityEvents;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Guards {@code /admin/}: {@code Authorization: Bearer <crm.admin-token>}, compared in constant
 * time. With no admin token configured the admin API does not exist (404).
 */
class AdminTokenInterceptor implements HandlerInterceptor {

  private final CrmProperties properties;

  AdminTokenInterceptor(CrmProperties properties) {
    this.properties = properties;
  }

  @Override
  public boolean preHandle(
      HttpServletRequest request, HttpServletResponse response, Object handler) {
    if (!properties.adminApiEnabled()) {
      throw new ApiException(
          HttpStatus.NOT_FOUND,
          "The admin API is disabled; set crm.admin-token to enable it.",
          List.of(),
          Map.of());
    }
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (!holdsAdminToken(properties, header)) {
      SecurityEvents.refused(
          request, header == null ? "no Authorization header" : "a wrong admin token");
      throw ApiException.unauthorized();
    }
    return true;
  }

  /**
   * Whether the Authorization header is {@code Bearer <crm.admin-token>}, compared in constant
   * time. Only for an enabled admin API ({@link CrmProperties#adminApiEnabled()}).
   */
  static boolean holdsAdminToken(CrmProperties properties, String authorization) {
    byte[] expected = ("Bearer " + properties.adminToken()).getBytes(StandardCharsets.UTF_8);
    return authorization != null
        && MessageDigest.isEqual(authorization.getBytes(StandardCharsets.UTF_8), expected);
  }
}
