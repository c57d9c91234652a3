package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.automation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** split end to end: each run goes down one branch, by the percents, along its labelled edge. */
class SplitNodeApiTest extends ApiTest {

  private static Map<String, Object> split(String hook, LocalHttpServer peer, List<?> branches) {
    return canvas(
        List.of(
            node(hook, "webhook_trigger", Map.of()),
            node("split", "split", Map.of("branches", branches)),
            node("a", "http_request", Map.of("method", "POST", "url", peer.url("/a"))),
            node("b", "http_request", Map.of("method", "POST", "url", peer.url("/b")))),
        List.of(
            edge("e1", hook, "split"),
            edge("e2", "split", "a", "A"),
            edge("e3", "split", "b", "B")));
  }

  private static Map<String, Object> branch(String label, double percent) {
    return Map.of("label", label, "percent", percent);
  }

  @Test
  void eachRunTakesOneBranchAndBothAreTakenAtFiftyFifty() {
    TenantClient tenant = newTenant();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      String hook = uniqueId("hook");
      activeAutomation(tenant.api(), split(hook, peer, List.of(branch("A", 50), branch("B", 50))));
      List<String> runs = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        runs.add(fire(anonymous(), tenant.id(), hook, Map.of("n", i)));
      }
      Map<String, Integer> taken = new HashMap<>();
      for (String runId : runs) {
        JsonNode run = awaitRun(tenant.api(), runId);
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
        String branch = run.at("/node_log/1/output/branch").asString();
        assertThat(branch).isIn("A", "B");
        assertThat(run.at("/node_log/2/nodeId").asString())
            .as("the node on the branch's edge ran, and only it")
            .isEqualTo(branch.toLowerCase());
        assertThat(run.at("/node_log").size()).isEqualTo(3);
        taken.merge(branch, 1, Integer::sum);
      }
      assertThat(taken.keySet()).containsExactlyInAnyOrder("A", "B");
      assertThat(peer.received("/a").size() + peer.received("/b").size()).isEqualTo(30);
      assertThat(peer.received("/a")).hasSize(taken.get("A"));
    }
  }

  @Test
  void aSplitsBranchesMustSumToAHundredWithUniqueLabelsEachWithItsEdge() {
    TenantClient tenant = newTenant();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      String flow = automation(tenant.api(), "Split");
      String hook = uniqueId("hook");
      ApiResponse ninety =
          tenant
              .api()
              .put(
                  "/api/sequences/" + flow + "/canvas",
                  split(hook, peer, List.of(branch("A", 50), branch("B", 40))));
      assertThat(ninety.status()).isEqualTo(400);
      assertThat(ninety.rawBody())
          .contains("nodes.split.data.config.branches")
          .contains("has percents that sum to 90, not 100");
      ApiResponse twice =
          tenant
              .api()
              .put(
                  "/api/sequences/" + flow + "/canvas",
                  split(hook, peer, List.of(branch("A", 50), branch("A", 50))));
      assertThat(twice.rawBody()).contains("names branch A twice");

      ApiResponse noEdgeForC =
          tenant
              .api()
              .post(
                  "/api/sequences/" + flow + "/validate",
                  split(hook, peer, List.of(branch("A", 40), branch("B", 40), branch("C", 20))));
      assertThat(noEdgeForC.json().get("valid").asBoolean()).isFalse();
      assertThat(noEdgeForC.rawBody()).contains("split split has no edge for its branch 'C'");

      ApiResponse linear =
          tenant
              .api()
              .put(
                  "/api/v1/sequences/" + sequence(tenant.api(), "Steps") + "/steps",
                  Map.of(
                      "steps",
                      List.of(
                          Map.of(
                              "type",
                              "split",
                              "config",
                              Map.of("branches", List.of(branch("A", 50), branch("B", 50)))))));
      assertThat(linear.status()).as("a list has no branches").isEqualTo(400);
    }
  }
}
