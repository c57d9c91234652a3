package com.crmflow.api.tracing;

import io.micrometer.observation.ObservationPredicate;
import io.opentelemetry.api.trace.Span;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the service's traces hold: requests, workflow starts, workflow tasks, activities, outbound
 * calls, and the SQL statements of those. Polls of the scheduled tasks (the event outbox, sweeps,
 * the reconciler) open no trace of their own, and a SQL statement outside any trace is no span: a
 * poll every few hundred milliseconds would otherwise fill the tracing backend with traces nobody
 * asked about. Work a poll starts for a run (an event's runs) opens its own trace (see {@link
 * LinkedTraces}).
 */
@Configuration(proxyBeanMethods = false)
public class SpanScopes {

  @Bean
  ObservationPredicate onlyWorkOfATrace() {
    return (name, context) -> {
      if (name.equals("tasks.scheduled.execution")) {
        return false;
      }
      if (name.startsWith("jdbc.")) {
        return Span.current().getSpanContext().isValid();
      }
      return true;
    };
  }
}
