package com.crmflow.api.config;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.PathSpellingFilter;
import com.crmflow.api.web.ProblemDetailsErrorReportValve;
import com.crmflow.api.web.RequestSizeLimitFilter;
import com.crmflow.api.web.SecurityHeadersFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.AbstractResourceResolver;
import org.springframework.web.servlet.resource.EncodedResourceResolver;
import org.springframework.web.servlet.resource.PathResourceResolver;
import org.springframework.web.servlet.resource.ResourceResolverChain;

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

  /**
   * The web console (the console module's files under META-INF/resources/console). Its build names
   * each script and style by a hash of its content (assets/), so a browser keeps them a year and
   * never asks again; every other file, index.html first, is asked again on each load (no-cache) so
   * that a new build is picked up at once. Each file is sent brotli- or gzip-compressed when the
   * browser accepts it, from the .br and .gz files the build writes beside it.
   */
  @Bean
  WebMvcConfigurer consoleAddress() {
    return new WebMvcConfigurer() {
      @Override
      public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/console", "/console/");
        registry.addViewController("/console/").setViewName("forward:/console/index.html");
      }

      @Override
      public void addResourceHandlers(ResourceHandlerRegistry registry) {
        consoleFiles(registry, "/console/assets/**", CONSOLE_FILES + "assets/", HASHED);
        consoleFiles(registry, "/console/**", CONSOLE_FILES, CacheControl.noCache());
      }
    };
  }

  private static final String CONSOLE_FILES = "classpath:/META-INF/resources/console/";

  /** Named by their content: a changed file is a new name. */
  private static final CacheControl HASHED =
      CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable();

  private static void consoleFiles(
      ResourceHandlerRegistry registry, String pattern, String location, CacheControl cache) {
    registry
        .addResourceHandler(pattern)
        .addResourceLocations(location)
        .setCacheControl(cache)
        .resourceChain(true)
        .addResolver(new BrotliFirst())
        .addResolver(new EncodedResourceResolver())
        .addResolver(new PathResourceResolver());
  }

  /**
   * Offers brotli first to a browser that accepts it. Spring picks the first encoding the browser
   * lists, and browsers list gzip before br, though brotli is the smaller (a sixth less for the
   * console's script).
   */
  private static final class BrotliFirst extends AbstractResourceResolver {

    @Override
    protected Resource resolveResourceInternal(
        HttpServletRequest request,
        String path,
        List<? extends Resource> locations,
        ResourceResolverChain chain) {
      String accepted = request == null ? null : request.getHeader(HttpHeaders.ACCEPT_ENCODING);
      if (accepted == null
          || !accepted.toLowerCase(Locale.ROOT).matches("(^|.*[\\s,])br([\\s,;].*|$)")) {
        return chain.resolveResource(request, path, locations);
      }
      HttpServletRequest brotliFirst =
          new HttpServletRequestWrapper(request) {
            @Override
            public String getHeader(String name) {
              return HttpHeaders.ACCEPT_ENCODING.equalsIgnoreCase(name)
                  ? "br, " + accepted
                  : super.getHeader(name);
            }
          };
      return chain.resolveResource(brotliFirst, path, locations);
    }

    @Override
    protected String resolveUrlPathInternal(
        String path, List<? extends Resource> locations, ResourceResolverChain chain) {
      return chain.resolveUrlPath(path, locations);
    }
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
