package com.crmflow.api.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;

/**
 * Traces that start on their own, linked to what caused them: a run started by an enrollment, by a
 * schedule's fire or by a CRM event lives on its own timeline (minutes or days after its cause), so
 * its trace is a new one, and its root span carries a span link to the span of the request,
 * activity or write that caused it (OpenTelemetry's convention for work a batch or a queue starts).
 */
@Component
public class LinkedTraces {

  private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

  private static final TextMapGetter<Map<String, String>> MAP =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(@Nullable Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private final Tracer tracer;

  LinkedTraces(ObjectProvider<OpenTelemetry> openTelemetry) {
    this.tracer =
        openTelemetry.getIfAvailable(OpenTelemetry::noop).getTracer("com.crmflow.api.tracing");
  }

  /** The current span as a W3C traceparent, or null outside any trace. */
  @Nullable
  public static String currentTraceparent() {
    Map<String, String> carrier = new HashMap<>();
    W3C.inject(Context.current(), carrier, Map::put);
    return carrier.get("traceparent");
  }

  /**
   * Runs {@code work} in a new trace whose root span, {@code name}, links to the current span (the
   * cause is what this thread runs: a request, an activity).
   */
  public <T> T inNewTraceFromHere(String name, Supplier<T> work) {
    return inNewTrace(name, Span.current().getSpanContext(), work);
  }

  /**
   * Runs {@code work} in a new trace whose root span, {@code name}, links to the span a stored
   * traceparent names (none when it is null or not a valid traceparent).
   */
  public <T> T inNewTraceFrom(String name, @Nullable String causeTraceparent, Supplier<T> work) {
    SpanContext cause = SpanContext.getInvalid();
    if (causeTraceparent != null) {
      cause =
          Span.fromContext(
                  W3C.extract(Context.root(), Map.of("traceparent", causeTraceparent), MAP))
              .getSpanContext();
    }
    return inNewTrace(name, cause, work);
  }

  private <T> T inNewTrace(String name, SpanContext cause, Supplier<T> work) {
    var builder = tracer.spanBuilder(name).setNoParent().setSpanKind(SpanKind.INTERNAL);
    if (cause.isValid()) {
      builder.addLink(cause);
    }
    Span root = builder.startSpan();
    try (Scope ignored = root.makeCurrent()) {
      return work.get();
    } catch (RuntimeException e) {
      root.recordException(e);
      throw e;
    } finally {
      root.end();
    }
  }
}
