package com.crmflow.api.trigger;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The trigger quota on the public trigger's path, after the audit interceptor (order 0). */
@Configuration
class TriggerQuotaConfig implements WebMvcConfigurer {

  private final TriggerQuotas quotas;

  TriggerQuotaConfig(TriggerQuotas quotas) {
    this.quotas = quotas;
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry
        .addInterceptor(new TriggerQuotaInterceptor(quotas))
        .addPathPatterns("/api/webhooks/automation/**")
        .order(1);
  }
}
