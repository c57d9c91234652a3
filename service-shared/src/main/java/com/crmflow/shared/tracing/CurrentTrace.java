package com.crmflow.shared.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import java.util.Optional;

/**
 * The trace and span this thread works in (a request, an activity), as W3C ids: trace ids of 32 and
 * span ids of 16 lowercase hex digits. Trace context is always on, so these are present wherever a
 * request or an activity runs, whether its spans are sampled for export or not.
 */
public final class CurrentTrace {

  /** The mail header that carries an email's trace id. */
  public static final String EMAIL_HEADER = "X-Trace-Id";

  private CurrentTrace() {}

  /** The current trace's id, if this thread works in one. */
  public static Optional<String> traceId() {
    SpanContext context = Span.current().getSpanContext();
    return context.isValid() ? Optional.of(context.getTraceId()) : Optional.empty();
  }

  /** The current span's id, if this thread works in a trace. */
  public static Optional<String> spanId() {
    SpanContext context = Span.current().getSpanContext();
    return context.isValid() ? Optional.of(context.getSpanId()) : Optional.empty();
  }
}
