package com.crmflow.api.auth;

import com.crmflow.api.apikey.ApiKeyService;
import com.crmflow.api.audit.AuditInterceptor;
import com.crmflow.api.audit.SecurityEventLog;
import com.crmflow.api.ratelimit.RateLimitInterceptor;
import com.crmflow.api.ratelimit.TokenBuckets;
import com.crmflow.api.settings.CrmProperties;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The request pipeline of the API, in order: the audit interceptor (first, so that it sees the
 * calls refused after it; it acts once the answer is final), API key and scope (401/403), rate
 * limit (429), then the handler. The public automation trigger passes only the audit interceptor.
 * The management endpoints beyond health take the admin token ({@link ManagementAccessFilter}).
 */
@Configuration
class ApiSecurityConfig implements WebMvcConfigurer {

  static final String PUBLIC_TRIGGER = "/api/webhooks/automation/**";

  private final ApiKeyService apiKeys;
  private final CrmProperties properties;
  private final AuditInterceptor auditInterceptor;

  private final TokenBuckets buckets;

  /**
   * @param buckets the rate limit's buckets; in memory where none are configured (the web layer's
   *     slice tests)
   */
  ApiSecurityConfig(
      ApiKeyService apiKeys,
      CrmProperties properties,
      AuditInterceptor auditInterceptor,
      ObjectProvider<TokenBuckets> buckets) {
    this.apiKeys = apiKeys;
    this.properties = properties;
    this.auditInterceptor = auditInterceptor;
    this.buckets = buckets.getIfAvailable(TokenBuckets::inMemory);
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry.addInterceptor(auditInterceptor).addPathPatterns("/api/**", "/admin/**");
    registry
        .addInterceptor(new ApiKeyInterceptor(apiKeys))
        .addPathPatterns("/api/**")
        .excludePathPatterns(PUBLIC_TRIGGER);
    registry
        .addInterceptor(new RateLimitInterceptor(properties.rateLimit(), buckets))
        .addPathPatterns("/api/**")
        .excludePathPatterns(PUBLIC_TRIGGER);
    registry.addInterceptor(new AdminTokenInterceptor(properties)).addPathPatterns("/admin/**");
  }

  @Bean
  FilterRegistrationBean<ManagementAccessFilter> managementAccessFilter(
      @Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver,
      SecurityEventLog securityEvents) {
    var registration =
        new FilterRegistrationBean<>(
            new ManagementAccessFilter(
                properties,
                resolver,
                (request, reason) -> securityEvents.refused(request, 401, "admin", reason)));
    registration.addUrlPatterns(ManagementAccessFilter.BASE, ManagementAccessFilter.BASE + "/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 50);
    return registration;
  }

  @Override
  public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
    resolvers.add(new CallerArgumentResolver());
  }
}
