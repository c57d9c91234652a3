package com.crmflow.api.config;

import com.crmflow.api.web.PathSpellingFilter;
import com.crmflow.api.web.ProblemDetailsErrorReportValve;
import com.crmflow.api.web.RequestSizeLimitFilter;
import com.crmflow.api.web.SecurityHeadersFilter;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration
@EnableConfigurationProperties(CrmProperties.class)
class WebConfig {

  @Bean
  FilterRegistrationBean<RequestSizeLimitFilter> requestSizeLimitFilter(
      CrmProperties properties,
      @Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver) {
    var registration =
        new FilterRegistrationBean<>(
            new RequestSizeLimitFilter(properties.maxRequestSize().toBytes(), resolver));
    registration.addUrlPatterns("/api/*", "/admin/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 100);
    return registration;
  }

  /** First, so that every answer carries the headers, refusals of the filters after it too. */
  @Bean
  FilterRegistrationBean<SecurityHeadersFilter> securityHeadersFilter() {
    var registration = new FilterRegistrationBean<>(new SecurityHeadersFilter());
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return registration;
  }

  /**
   * Right after the headers, before every guard (management access, trigger quota, size limit, the
   * interceptors): a path spelled to read differently decoded is refused before any of them decides
   * on it.
   */
  @Bean
  FilterRegistrationBean<PathSpellingFilter> pathSpellingFilter(
      @Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver) {
    var registration = new FilterRegistrationBean<>(new PathSpellingFilter(resolver));
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return registration;
  }

  /** The web console (the console module's files under META-INF/resources/console). */
  @Bean
  WebMvcConfigurer consoleAddress() {
    return new WebMvcConfigurer() {
      @Override
      public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/console", "/console/");
        registry.addViewController("/console/").setViewName("forward:/console/index.html");
      }
    };
  }

  /** Requests Tomcat refuses itself get problem details too (see the valve). */
  @Bean
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemDetailsForTomcatErrors() {
    return factory ->
        factory.addContextCustomizers(
            context -> {
              if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemDetailsErrorReportValve.class.getName());
              }
            });
  }
}
