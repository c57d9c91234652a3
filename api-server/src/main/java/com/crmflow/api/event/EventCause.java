package com.crmflow.api.event;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What produced an event that a run's write produced: the run, its flow (automation or sequence),
 * the node that wrote, the chain of flows whose runs led there (the first flow first and the run's
 * own flow last), and the root: what started the first run of the chain. An event an API client's
 * call produced has no cause.
 *
 * <p>Stored with the outbox event ({@code event_outbox.cause}) and with each run the event starts
 * ({@code automation_run.cause}, never in its trigger payload), as {@code {run_id, sequence_id,
 * node_id, chain, depth, root}}; a write of that run carries the chain and the root on. A call of
 * the service's own public trigger or authenticated API by an http_request or a webhook delivery
 * carries it on too (the run's {@code CRM-Cause} token).
 *
 * @param chain the flows whose runs led to the event, never empty; its size is the depth
 * @param root the event (an API client's, say) that started the chain's first run, or that run
 *     itself when no event started it; crm.events.max-runs-per-cause counts the runs per root
 */
public record EventCause(UUID runId, UUID sequenceId, String nodeId, List<UUID> chain, UUID root) {

  public EventCause {
    chain = List.copyOf(chain);
  }

  /**
   * The cause of the events a run's write produces.
   *
   * @param startedBy the cause of the event that started the run, or null (an API client's event, a
   *     webhook, a schedule, an enrollment)
   * @param rootOfFirst the root when {@code startedBy} is null: the event that started the run, or
   *     the run's id
   */
  public static EventCause ofWrite(
      UUID runId, UUID sequenceId, String nodeId, EventCause startedBy, UUID rootOfFirst) {
    List<UUID> chain = new ArrayList<>(startedBy == null ? List.of() : startedBy.chain());
    chain.add(sequenceId);
    return new EventCause(
        runId, sequenceId, nodeId, chain, startedBy == null ? rootOfFirst : startedBy.root());
  }

  /** How many runs, one after the other, led to the event. */
  public int depth() {
    return chain.size();
  }

  /** Whether a run of the flow is among the runs that led to the event. */
  public boolean leadsThrough(UUID sequenceId) {
    return chain.contains(sequenceId);
  }

  /**
   * {@code {run_id, sequence_id, node_id, chain, depth, root}}: the stored and the payload form.
   */
  public Map<String, Object> asMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("run_id", runId.toString());
    map.put("sequence_id", sequenceId.toString());
    map.put("node_id", nodeId);
    map.put("chain", chain.stream().map(UUID::toString).toList());
    map.put("depth", depth());
    map.put("root", root.toString());
    return map;
  }

  /**
   * Longer than any chain the depth limit lets grow (crm.events.max-chain-depth is at most 100).
   */
  static final int LONGEST_CHAIN = 100;

  /**
   * The cause in its stored form, or null when {@code value} is none (absent, not of that shape, or
   * a chain longer than any the service writes).
   */
  public static EventCause from(Object value) {
    if (!(value instanceof Map<?, ?> map)
        || !(map.get("chain") instanceof List<?> listed)
        || listed.isEmpty()
        || listed.size() > LONGEST_CHAIN) {
      return null;
    }
    try {
      List<UUID> chain = new ArrayList<>();
      for (Object id : listed) {
        chain.add(UUID.fromString(String.valueOf(id)));
      }
      UUID runId = UUID.fromString(String.valueOf(map.get("run_id")));
      return new EventCause(
          runId,
          UUID.fromString(String.valueOf(map.get("sequence_id"))),
          map.get("node_id") == null ? null : String.valueOf(map.get("node_id")),
          chain,
          // a cause stored before causes had a root: its run stands for it
          map.get("root") == null ? runId : UUID.fromString(String.valueOf(map.get("root"))));
    } catch (IllegalArgumentException notACause) {
      return null;
    }
  }
}
