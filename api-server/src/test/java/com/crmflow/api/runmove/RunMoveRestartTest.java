package com.crmflow.api.runmove;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitMoveCompleted;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fireWaitingRuns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.WholeService;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Moves on a whole service of their own: a move under way when its service stops goes on when the
 * service starts again on the same data (its job is taken on from its last page, and every run is
 * moved once and calls version 2's URL once); a run the worker no longer keeps moves in one
 * workflow task.
 */
class RunMoveRestartTest {

  /** A page of one run every 3 s: the move is under way when the service stops. */
  private static final String[] SLOW_MOVE = {
    "--crm.runs.move.page-size=1", "--crm.runs.move.pause=3s"
  };

  private static final int RUNS = 4;

  private static Map<String, Object> waitThenCall(LocalHttpServer peer, double minutes, String v) {
    return chain(
        "hook",
        node("wait", "delay", Map.of("delayMinutes", minutes)),
        node(
            "call",
            "http_request",
            Map.of("method", "POST", "url", peer.url("/" + v + "/{{trigger.n}}"))));
  }

  /** Saves version 2 (a 3 s wait, then version 2's call) and starts the move; its id. */
  private static String saveVersion2AndMove(ApiClient api, String flow, LocalHttpServer peer) {
    assertThat(
            api.put("/api/sequences/" + flow + "/canvas", waitThenCall(peer, 0.05, "v2")).status())
        .isEqualTo(200);
    ApiResponse started =
        api.post("/api/sequences/" + flow + "/runs/move", Map.of("recompute_delays", true));
    assertThat(started.status()).as(started.toString()).isEqualTo(202);
    return started.text("/move/move_id");
  }

  @Test
  void aMoveUnderWayGoesOnAfterARestartAndMovesEachRunOnce(@TempDir Path dataDir) {
    try (LocalHttpServer peer = new LocalHttpServer()) {
      peer.answer("/v1", 200, "{}");
      peer.answer("/v2", 200, "{}");
      ApiTest.TenantClient tenant;
      String flow;
      String moveId;
      List<String> runs = new ArrayList<>();
      try (ConfigurableApplicationContext first =
          WholeService.start(dataDir, new String[0], SLOW_MOVE)) {
        tenant = WholeService.newTenant(first);
        ApiClient api = tenant.api();
        flow = activeAutomation(api, waitThenCall(peer, 30, "v1"));
        ApiClient anonymous = new ApiClient(WholeService.baseUrl(first), null);
        runs.addAll(fireWaitingRuns(anonymous, api, tenant.id(), "hook", RUNS));
        moveId = saveVersion2AndMove(api, flow, peer);
        String moveUrl = "/api/sequences/" + flow + "/runs/moves/" + moveId;
        JsonNode underWay =
            await()
                .atMost(Patience.EVENTUALLY)
                .until(() -> api.get(moveUrl).at("/move"), move -> move.get("moved").asLong() >= 1);
        assertThat(underWay.get("status").asString()).isEqualTo("running");
        assertThat(underWay.get("pending").asLong()).as("stopped mid-move").isPositive();
      }

      try (ConfigurableApplicationContext second =
          WholeService.start(dataDir, new String[0], SLOW_MOVE)) {
        ApiClient api = new ApiClient(WholeService.baseUrl(second), tenant.key());
        String moveUrl = "/api/sequences/" + flow + "/runs/moves/" + moveId;
        JsonNode done = awaitMoveCompleted(api, moveUrl);

        assertThat(done.get("moved").asLong()).as(done.toString()).isEqualTo(RUNS);
        assertThat(done.get("skipped").asLong()).isZero();
        for (int n = 0; n < RUNS; n++) {
          JsonNode run = awaitRun(api, runs.get(n));
          assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
          assertThat(run.get("canvas_version").asInt()).isEqualTo(2);
          assertThat(run.get("moved_from_versions").toString()).isEqualTo("[1]");
          assertThat(run.at("/node_log").valueStream().map(e -> e.get("nodeId").asString()))
              .containsExactly("hook", "wait", "move:v2", "call");
          assertThat(peer.received("/v2/" + n)).as("version 2's call, once").hasSize(1);
        }
        assertThat(peer.received()).hasSize(RUNS);
      }
    }
  }

  /**
   * A waiting run its worker no longer keeps in memory (a cache of one run, where a busy worker
   * keeps 600 of thousands) moves in one workflow task: the update's task reaches a worker with the
   * run's whole history, so none fails for want of the update's own events. Dropping a waiting run
   * from the cache cancels its timer in memory only: no failure, so no warning in the worker's log
   * (the SDK warns, with a stack trace, of a failed promise that nothing read).
   */
  @Test
  void aRunItsWorkerNoLongerKeepsMovesInOneWorkflowTask(@TempDir Path dataDir) {
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    try (LocalHttpServer peer = new LocalHttpServer();
        ConfigurableApplicationContext service =
            WholeService.start(
                dataDir, new String[0], "--spring.temporal.workflow-cache.max-instances=1")) {
      // once the service has set up its logging, which starts afresh
      log.start();
      root.addAppender(log);
      peer.answer("/v1", 200, "{}");
      peer.answer("/v2", 200, "{}");
      ApiTest.TenantClient tenant = WholeService.newTenant(service);
      ApiClient api = tenant.api();
      String flow = activeAutomation(api, waitThenCall(peer, 30, "v1"));
      List<String> runs =
          fireWaitingRuns(
              new ApiClient(WholeService.baseUrl(service), null), api, tenant.id(), "hook", RUNS);
      JsonNode done =
          awaitMoveCompleted(
              api,
              "/api/sequences/" + flow + "/runs/moves/" + saveVersion2AndMove(api, flow, peer));
      assertThat(done.get("moved").asLong()).as(done.toString()).isEqualTo(RUNS);

      WorkflowClient temporal = service.getBean(WorkflowClient.class);
      for (int n = 0; n < RUNS; n++) {
        JsonNode run = awaitRun(api, runs.get(n));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
        assertThat(peer.received("/v2/" + n)).as("version 2's call, once").hasSize(1);
        List<EventType> events =
            temporal
                .fetchHistory(AutomationRunWorkflow.workflowId(runs.get(n)))
                .getEvents()
                .stream()
                .map(HistoryEvent::getEventType)
                .toList();
        assertThat(events)
            .as("the move's update, accepted and completed")
            .contains(
                EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
                EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED)
            .as("no workflow task failed")
            .doesNotContain(EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
      }
    } finally {
      root.detachAppender(log);
    }
    assertThat(log.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .as("no warning of a dropped run's cancelled timer")
        .noneMatch(message -> message.contains("never accessed"));
  }
}
