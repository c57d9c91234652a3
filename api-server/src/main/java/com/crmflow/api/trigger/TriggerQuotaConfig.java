package com.crmflow.api.trigger;

import com.crmflow.api.run.RunAdmission;
import com.crmflow.api.settings.CrmProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** The trigger quota on the public trigger's path, the first filter of its calls. */
@Configuration
class TriggerQuotaConfig {

  @Bean(destroyMethod = "close")
  TriggerQuotaFilter triggerQuotaFilter(
      TriggerQuotas quotas, RunAdmission admission, CrmProperties properties) {
    return new TriggerQuotaFilter(quotas, admission, properties.trigger().quota().refusalDelay());
  }

  @Bean
  FilterRegistrationBean<TriggerQuotaFilter> triggerQuotaFilterRegistration(
      TriggerQuotaFilter filter) {
    var registration = new FilterRegistrationBean<>(filter);
    registration.addUrlPatterns(TriggerQuotaFilter.PATH + "*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 50);
    registration.setAsyncSupported(true);
    return registration;
  }
}
