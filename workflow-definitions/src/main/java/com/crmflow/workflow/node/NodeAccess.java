package com.crmflow.workflow.node;

import java.util.List;

/**
 * What a node type reads and writes of the tenant's data when it runs, from which the API-key
 * scopes its flows need follow ({@link FlowAccess}, api-server's {@code FlowScopes}).
 *
 * <p>Each entry is a record type ({@code contact}, {@code task}, ...), {@value #CHAT} (posts
 * through the tenant's chat integration), or {@code {field}}: the record type named by that config
 * field's value (its part before a dot, so an event {@code opportunity.created} names {@code
 * opportunity}).
 *
 * @param reads what the node reads
 * @param writes what the node writes; a node's output holds what it wrote, so whoever reads its
 *     {@code <type>_<n>} variable reads those record types
 */
public record NodeAccess(List<String> reads, List<String> writes) {

  /** Posting to a chat channel through the tenant's chat integration. */
  public static final String CHAT = "chat";

  public static final NodeAccess NONE = new NodeAccess(List.of(), List.of());

  public NodeAccess {
    reads = List.copyOf(reads);
    writes = List.copyOf(writes);
  }

  public static NodeAccess reads(String... what) {
    return new NodeAccess(List.of(what), List.of());
  }

  public static NodeAccess writes(String... what) {
    return new NodeAccess(List.of(), List.of(what));
  }

  /** The config field an entry names ({@code {entityType}} → entityType), or null. */
  static String fieldOf(String entry) {
    return entry.startsWith("{") && entry.endsWith("}")
        ? entry.substring(1, entry.length() - 1)
        : null;
  }
}
