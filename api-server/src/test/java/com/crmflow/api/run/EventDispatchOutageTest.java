package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.DevServers;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.RefusedPort;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A Temporal outage between a CRM change and its automation: the event is dispatched into a stored
 * run while Temporal is down, and the run starts, once, when Temporal is back. Uses a dev server of
 * its own, killed and started again on its state and port.
 */
@DirtiesContext
class EventDispatchOutageTest extends ApiTest {

  private static final TemporalDevServer TEMPORAL = DevServers.start();

  @DynamicPropertySource
  static void temporal(DynamicPropertyRegistry registry) {
    registry.add("spring.temporal.connection.target", TEMPORAL::target);
    registry.add("crm.runs.reconcile-interval", () -> "1s");
    registry.add("crm.runs.reconcile-grace-seconds", () -> "1");
  }

  /**
   * This class's context is closed when the class is done (not at the end of the test run, with a
   * dead server its workers would spend the JVM's exit retrying polls), and the server after the
   * context's workers have stopped.
   */
  @TestConfiguration
  static class StopTemporalAfterTheWorkers {
    @Bean
    DisposableBean stopTemporal() {
      return TEMPORAL::close;
    }
  }

  @Test
  void eventsDuringAnOutageRunOnceWhenTemporalIsBack() throws Exception {
    TenantClient tenant = newTenant();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      String trigger = uniqueId("on-contact");
      String sequence =
          activeAutomation(
              tenant.api(),
              canvas(
                  List.of(
                      node(trigger, "crm_event_trigger", Map.of("eventType", "contact.created")),
                      node(
                          "tell",
                          "http_request",
                          Map.of(
                              "method",
                              "POST",
                              "url",
                              peer.url("/created"),
                              "bodyTemplate",
                              "{\"email\": \"{{trigger.data.email}}\"}"))),
                  List.of(edge("e1", trigger, "tell"))));

      TEMPORAL.kill(); // the outage
      RefusedPort outage = new RefusedPort(TEMPORAL.settings().port());
      tenant.api().post("/api/v1/contacts", Map.of("email", "outage@example.com"));

      await().atMost(Patience.EVENTUALLY).until(() -> runs(tenant, sequence).size() == 1);
      String runId = runs(tenant, sequence).get(0).get("id").asString();
      // several reconciler rounds (1 s apart) fail while Temporal is down
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Patience.EVENTUALLY)
          .until(() -> !started(runId) && peer.received("/created").isEmpty());
      // what an operator's alert watches
      assertThat(prometheus("crm_runs_awaiting_start")).isGreaterThanOrEqualTo(1);

      outage.close();
      TEMPORAL.startAgain(); // back, on its state
      JsonNode run = awaitRun(tenant.api(), runId);

      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(started(runId)).isTrue();
      assertThat(peer.received("/created")).hasSize(1);
      assertThat(peer.received("/created").get(0).body())
          .isEqualTo("{\"email\": \"outage@example.com\"}");
      assertThat(runs(tenant, sequence)).hasSize(1);
      await().atMost(Patience.EVENTUALLY).until(() -> prometheus("crm_runs_awaiting_start") == 0);
    }
  }

  private List<JsonNode> runs(TenantClient tenant, String sequence) {
    return tenant
        .api()
        .get("/api/v1/automation-runs?sequence_id=" + sequence)
        .json()
        .at("/runs")
        .valueStream()
        .toList();
  }

  private boolean started(String runId) {
    return jdbc.sql("select workflow_started from automation_run where id = cast(:id as uuid)")
        .param("id", runId)
        .query(Boolean.class)
        .single();
  }
}
