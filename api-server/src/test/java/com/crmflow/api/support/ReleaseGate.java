package com.crmflow.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A wait that the test opens itself, for tests that act on a run while it waits (pause it, hold it,
 * move it). It is a wait_until node for the run's contact to become a customer, with a timeout of a
 * day. A short delay would race such a test on a slow machine, since the delay can end before the
 * test acts. The gate holds the run until {@link #open}, whatever the machine's speed.
 */
public final class ReleaseGate {

  /** The gate's outcome once opened: the label of its edge to the next node. */
  private static final String OPENED = "met";

  private ReleaseGate() {}

  /**
   * A webhook_trigger with this id, then the gate (id {@code "wait"}), then each of the nodes in
   * turn: the gate's edge labelled {@value #OPENED}, the others plain (edges e1, e2, ...).
   */
  @SafeVarargs
  public static Map<String, Object> chain(String triggerId, Map<String, Object>... after) {
    List<Map<String, Object>> nodes = new ArrayList<>();
    nodes.add(Flows.node(triggerId, "webhook_trigger", Map.of()));
    nodes.add(node("wait"));
    nodes.addAll(List.of(after));
    List<Map<String, Object>> edges = new ArrayList<>();
    for (int i = 1; i < nodes.size(); i++) {
      String from = (String) nodes.get(i - 1).get("id");
      String to = (String) nodes.get(i).get("id");
      edges.add(i == 2 ? Flows.edge("e" + i, from, to, OPENED) : Flows.edge("e" + i, from, to));
    }
    return Flows.canvas(nodes, edges);
  }

  /** The gate as a node with this id. */
  public static Map<String, Object> node(String id) {
    return Flows.node(
        id,
        "wait_until",
        Map.of(
            "eventType", "contact.updated",
            "filterField", "lifecycle_stage",
            "filterValue", "customer",
            "timeoutDays", 1));
  }

  /**
   * Returns once the run waits at the gate, its watch of the contact in place: an update made
   * before that would pass the run by.
   */
  public static void awaitWaiting(JdbcClient jdbc, String runId) {
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                jdbc.sql("select count(*) from record_watch where run_id = :id")
                        .param("id", UUID.fromString(runId))
                        .query(Integer.class)
                        .single()
                    == 1);
  }

  /**
   * Opens the gate for the runs of this contact once every ask of the flow's runs (a hold, a
   * release, an end) has been handed to them, so that the ask reaches each run before the opening.
   */
  public static void openAfterAsks(
      JdbcClient jdbc, ApiClient api, String flowId, String contactId) {
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                jdbc.sql(
                            """
                        select count(*) from run_control_job
                        where sequence_id = :id and status = 'running'
                        """)
                        .param("id", UUID.fromString(flowId))
                        .query(Integer.class)
                        .single()
                    == 0);
    open(api, contactId);
  }

  /** Opens the gate for the runs of this contact: the contact becomes a customer. */
  public static void open(ApiClient api, String contactId) {
    ApiResponse updated =
        api.patch("/api/v1/contacts/" + contactId, Map.of("lifecycle_stage", "customer"));
    assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
  }
}
