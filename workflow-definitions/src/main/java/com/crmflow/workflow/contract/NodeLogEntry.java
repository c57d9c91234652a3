package com.crmflow.workflow.contract;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * One entry of a run's node_log. {@code seq} orders entries by execution start and, with the run
 * id, keys the stored row, so a retried recording replaces instead of duplicating.
 *
 * @param status running, completed, failed or skipped
 * @param startedAt ISO-8601 with milliseconds
 * @param completedAt ISO-8601 with milliseconds, null while running
 * @param spanId the W3C span id (16 lowercase hex digits) of the span that did the node's work: for
 *     an http_request its activity's (the attempt that answered or failed last; the call's span is
 *     its child), for a trigger logged on acceptance the trigger's request, else the workflow task
 *     of the run's trace (the node's activities are its children); null outside a trace
 * @param input what the node ran with ({@code com.crmflow.workflow.run.NodeInput}): its config with
 *     the template variables filled in and secrets masked, and the variables it read; null for
 *     triggers (their input is the run's payload), for nodes that never started, and for runs older
 *     than the interpreter's change {@code node-input}
 */
public record NodeLogEntry(
    int seq,
    String nodeId,
    String nodeType,
    String status,
    String startedAt,
    String completedAt,
    Map<String, Object> output,
    String error,
    String spanId,
    Map<String, Object> input) {

  public NodeLogEntry(
      int seq,
      String nodeId,
      String nodeType,
      String status,
      String startedAt,
      String completedAt,
      Map<String, Object> output,
      String error) {
    this(seq, nodeId, nodeType, status, startedAt, completedAt, output, error, null, null);
  }

  /** The same entry, run in that span. */
  public NodeLogEntry withSpanId(String span) {
    return new NodeLogEntry(
        seq, nodeId, nodeType, status, startedAt, completedAt, output, error, span, input);
  }

  /** The same entry, run with that input. */
  public NodeLogEntry withInput(Map<String, Object> ranWith) {
    return new NodeLogEntry(
        seq, nodeId, nodeType, status, startedAt, completedAt, output, error, spanId, ranWith);
  }

  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** The log's time format: ISO-8601 UTC, always with milliseconds. */
  public static String timestamp(Instant instant) {
    return MILLIS.format(instant);
  }
}
