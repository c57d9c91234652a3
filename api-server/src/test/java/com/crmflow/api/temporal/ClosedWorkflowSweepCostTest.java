package com.crmflow.api.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.SequenceSupport;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What a look of the close check costs: nothing per record that waits. Runs waiting on a delay are
 * never walked one by one; a terminated one is found through Temporal's visibility; only a new
 * namespace id (Temporal's database made again) walks the open records, once, a batch per look.
 */
class ClosedWorkflowSweepCostTest extends ApiTest {

  @Autowired private WorkflowClient temporal;
  @Autowired private CrmProperties properties;
  @Autowired private List<MirroredRecords> kinds;

  /** A kind of record that counts what the sweep asks of it. */
  private static final class Counting implements MirroredRecords {
    private final MirroredRecords real;
    final AtomicInteger walked = new AtomicInteger();
    final List<UUID> walkedIds = new java.util.concurrent.CopyOnWriteArrayList<>();
    final AtomicInteger lookedUp = new AtomicInteger();

    Counting(MirroredRecords real) {
      this.real = real;
    }

    @Override
    public String kind() {
      return real.kind();
    }

    @Override
    public List<Open> openAfter(UUID afterId, Duration minimumAge, int limit) {
      List<Open> open = real.openAfter(afterId, minimumAge, limit);
      walked.addAndGet(open.size());
      open.forEach(record -> walkedIds.add(record.id()));
      return open;
    }

    @Override
    public Optional<Open> openFor(String workflowId, String runIdMemo, Duration minimumAge) {
      lookedUp.incrementAndGet();
      return real.openFor(workflowId, runIdMemo, minimumAge);
    }

    @Override
    public boolean endClosed(Open record, ClosedExecution closed) {
      return real.endClosed(record, closed);
    }
  }

  @Test
  void looksWalkNoWaitingRunAndFindATerminatedOneThroughVisibility() {
    TenantClient tenant = newTenant();
    List<String> waiting = new ArrayList<>();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      SequenceSupport.activeAutomation(tenant.api(), Flows.waitADayThenCall(hook, peer.url("/x")));
      for (int i = 0; i < 10; i++) {
        String runId = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
        SequenceSupport.awaitNodeLog(tenant.api(), runId, 2);
        waiting.add(runId);
      }
    }
    List<Counting> counting = kinds.stream().map(Counting::new).toList();
    ClosedWorkflowSweep sweep =
        new ClosedWorkflowSweep(List.copyOf(counting), temporal, jdbc, properties);

    for (int look = 0; look < 3; look++) {
      sweep.checkNextBatches(Duration.ZERO);
    }
    assertThat(counting).allMatch(kind -> kind.walked.get() == 0);
    assertThat(
            jdbc.sql("select namespace_id from temporal_namespace_seen where namespace = :ns")
                .param("ns", temporal.getOptions().getNamespace())
                .query(String.class)
                .single())
        .as("the namespace's id, kept by the first look")
        .isNotBlank();

    String terminated = waiting.get(0);
    temporal.newUntypedWorkflowStub("run-" + terminated).terminate("found by visibility");
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> {
              sweep.checkNextBatches(Duration.ZERO);
              return status(tenant, terminated).equals("failed");
            });
    assertThat(counting).allMatch(kind -> kind.walked.get() == 0);
    for (String runId : waiting.subList(1, waiting.size())) {
      assertThat(status(tenant, runId)).isEqualTo("running");
      tenant.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of());
    }
  }

  @Test
  void aNewNamespaceIdWalksTheOpenRecordsOnceThenKeepsTheId() {
    TenantClient tenant = newTenant();
    String waiting;
    try (LocalHttpServer peer = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      SequenceSupport.activeAutomation(tenant.api(), Flows.waitADayThenCall(hook, peer.url("/x")));
      waiting = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
      SequenceSupport.awaitNodeLog(tenant.api(), waiting, 2);
    }
    List<Counting> counting = kinds.stream().map(Counting::new).toList();
    ClosedWorkflowSweep sweep =
        new ClosedWorkflowSweep(List.copyOf(counting), temporal, jdbc, properties);
    sweep.checkNextBatches(Duration.ZERO);
    String namespace = temporal.getOptions().getNamespace();
    String real =
        jdbc.sql("select namespace_id from temporal_namespace_seen where namespace = :ns")
            .param("ns", namespace)
            .query(String.class)
            .single();
    long open =
        jdbc.sql(
                "select count(*) from automation_run where status = 'running' and workflow_started")
            .query(Long.class)
            .single();

    // as if Temporal's database had been made again since the id was kept
    jdbc.sql(
            "update temporal_namespace_seen set namespace_id = 'made-before' where namespace = :ns")
        .param("ns", namespace)
        .update();
    for (long look = 0; look <= open / properties.closeCheck().batch() + 1; look++) {
      sweep.checkNextBatches(Duration.ZERO);
    }
    int walked = counting.stream().mapToInt(kind -> kind.walked.get()).sum();
    assertThat(counting.stream().flatMap(kind -> kind.walkedIds.stream()))
        .as("the open records, each once")
        .contains(UUID.fromString(waiting))
        .doesNotHaveDuplicates();
    assertThat(
            jdbc.sql("select namespace_id from temporal_namespace_seen where namespace = :ns")
                .param("ns", namespace)
                .query(String.class)
                .single())
        .isEqualTo(real);
    sweep.checkNextBatches(Duration.ZERO);
    assertThat(counting.stream().mapToInt(kind -> kind.walked.get()).sum())
        .as("no walk once the id is kept")
        .isEqualTo(walked);
    assertThat(status(tenant, waiting)).isEqualTo("running");
    tenant.api().post("/api/v1/automation-runs/" + waiting + "/cancel", Map.of());
  }

  private String status(TenantClient tenant, String runId) {
    return tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status");
  }
}
