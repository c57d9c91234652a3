package com.crmflow.api.idempotency;

import java.time.Duration;
import java.time.OffsetDateTime;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Idempotency-Key on the API's POST requests: the filter (after the request size limit), the
 * interceptor (after the API key and rate limit ones, which are registered first), and the hourly
 * removal of keys older than {@code crm.idempotency.keep}.
 */
@Configuration
class IdempotencyConfig implements WebMvcConfigurer {

  private final IdempotentRequestRepository requests;
  private final Duration keep;

  IdempotencyConfig(
      IdempotentRequestRepository requests, @Value("${crm.idempotency.keep:24h}") Duration keep) {
    this.requests = requests;
    this.keep = keep;
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

  @Scheduled(
      initialDelayString = "${crm.retention.initial-delay:1m}",
      fixedDelayString = "${crm.retention.interval:1h}")
  void forgetOldKeys() {
    OffsetDateTime cutOff = OffsetDateTime.now().minus(keep);
    while (requests.deleteOlderThan(cutOff, 1_000) == 1_000) {
      // the next batch
    }
  }
}
