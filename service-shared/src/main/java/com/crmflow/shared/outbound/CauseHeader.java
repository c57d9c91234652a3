package com.crmflow.shared.outbound;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code CRM-Cause: <run id>:<node id>}: the run (and its node) that an outbound call comes from,
 * sent by every http_request and by every webhook delivery of an event a run's write produced. The
 * service's own public trigger reads it, so a run started by a call from one of its runs continues
 * that run's chain of causes (crm_event_trigger's loop rules apply). The service sets it itself: a
 * header of that name in a node's configuration is replaced.
 */
public final class CauseHeader {

  public static final String NAME = "CRM-Cause";

  /** The run and the node a value names. */
  public record Cause(UUID runId, String nodeId) {}

  private CauseHeader() {}

  public static String value(UUID runId, String nodeId) {
    return runId + ":" + nodeId;
  }

  /** Puts the header into {@code headers}, replacing one of the same name in any letter case. */
  public static void put(Map<String, String> headers, String value) {
    headers.keySet().removeIf(name -> name.toLowerCase(Locale.ROOT).equals("crm-cause"));
    headers.put(NAME, value);
  }

  /** The run and node a header value names; empty for a value not of that form. */
  public static Optional<Cause> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String trimmed = value.trim();
    int colon = trimmed.indexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    try {
      String node = trimmed.substring(colon + 1);
      return Optional.of(
          new Cause(UUID.fromString(trimmed.substring(0, colon)), node.isEmpty() ? null : node));
    } catch (IllegalArgumentException notARun) {
      return Optional.empty();
    }
  }
}
