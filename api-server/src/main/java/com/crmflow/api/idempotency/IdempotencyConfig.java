package com.crmflow.api.idempotency;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Idempotency-Key on the API's POST requests: the filter (after the request size limit) and the
 * interceptor (after the API key and rate limit ones, which are registered first). Keys older than
 * {@code crm.idempotency.keep} are removed by the hourly retention pass.
 */
@Configuration
class IdempotencyConfig implements WebMvcConfigurer {

  private final IdempotentRequestRepository requests;

  IdempotencyConfig(IdempotentRequestRepository requests) {
    this.requests = requests;
  }

  @Bean
  FilterRegistrationBean<IdempotencyFilter> idempotencyFilter() {
    var registration = new FilterRegistrationBean<>(new IdempotencyFilter());
    registration.addUrlPatterns("/api/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 200);
    return registration;
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    // the public trigger is left alone by the filter, so the interceptor finds nothing to do there
    registry
        .addInterceptor(new IdempotencyInterceptor(requests))
        .addPathPatterns("/api/**")
        // after the API key interceptor (order 0), which tells whose key it is
        .order(1);
  }
}
