package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.waitADayThenCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.history.HistoryPayloads;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one order in which a new run begins, on the real database and Temporal server: insert, size
 * check, admission, start once committed. Each test begins runs through its own {@link
 * RunBeginnings}, with an admission of one due run and a count of the retry chains its starts read.
 */
class RunBeginningsTest extends ApiTest {

  @Autowired private RunRepository runs;
  @Autowired private RunInputs inputs;
  @Autowired private RunEnding ending;
  @Autowired private RunCancels cancels;
  @Autowired private WorkflowClient temporal;
  @Autowired private SequenceRepository sequences;
  @Autowired private CanvasRepository canvases;
  @Autowired private TransactionTemplate transaction;

  /** The retry chains read, counted. */
  private static final class CountedChains extends RetryChains {
    private final AtomicInteger read = new AtomicInteger();

    CountedChains(RunRepository runs, RunInputs inputs) {
      super(runs, inputs);
    }

    @Override
    RetryContext contextOf(Canvas canvas, AutomationRun retry) {
      read.incrementAndGet();
      return super.contextOf(canvas, retry);
    }
  }

  private final RunAdmission admission =
      new RunAdmission(
          1, Duration.ofMillis(100), false, Clock.systemUTC(), new SimpleMeterRegistry());

  private CountedChains chains;
  private RunStarter starter;
  private RunBeginnings beginnings;
  private TenantClient tenant;
  private UUID flow;
  private int version;
  private Canvas canvas;

  @BeforeEach
  void beginThroughTheirOwnAdmission() {
    chains = new CountedChains(runs, inputs);
    starter =
        new RunStarter(
            runs,
            cancels,
            new RunWorkflowStart(temporal, ending, sequences, inputs, chains, cancels));
    beginnings = new RunBeginnings(runs, inputs, chains, admission, starter, transaction);
    tenant = newTenant();
    flow =
        UUID.fromString(
            SequenceSupport.activeAutomation(
                tenant.api(), waitADayThenCall("hook", "http://127.0.0.1:9/never")));
    version = sequences.find(tenant.id(), flow).orElseThrow().currentVersion();
    canvas = canvases.version(tenant.id(), flow, version).orElseThrow().toCanvas();
  }

  @AfterEach
  void stopStarting() {
    starter.stopStarting();
  }

  private RunRepository.NewRun newRun(Object payload, UUID retryOf) {
    return new RunRepository.NewRun(
        UUID.randomUUID(), tenant.id(), flow, version, "hook", "hook", payload, null, retryOf);
  }

  /** A trigger call's beginning: refused when too large or when the admission refuses it. */
  private RunBeginnings.Beginning triggerCall(Object payload) {
    return RunBeginnings.Beginning.of(newRun(payload, null), RunBeginnings.Start.SOON)
        .pinnedTo(canvas)
        .withTriggerLogged("webhook_trigger")
        .refusedWhenTooLarge()
        .refusedWhenFull();
  }

  @Test
  void anAdmittedRunIsStoredWithItsTriggerLoggedCountedAndStarted() {
    AutomationRun run = beginnings.begin(triggerCall(Map.of("n", 1))).orElseThrow();

    assertThat(runs.find(tenant.id(), run.id())).isPresent();
    assertThat(runs.loggedNodes(run.id()))
        .extracting(entry -> entry.nodeId() + " " + entry.status())
        .first()
        .isEqualTo("hook " + RunResult.COMPLETED);
    assertThat(admission.dueNow(tenant.id())).as("counted until it ends").isEqualTo(1);
    await()
        .atMost(Patience.EVENTUALLY)
        .ignoreException(WorkflowNotFoundException.class)
        .until(() -> temporal.newUntypedWorkflowStub(run.workflowId()).describe() != null);
    assertThat(chains.read).as("a fresh run reads no retry chain").hasValue(0);
  }

  @Test
  void aRunTheAdmissionRefusesIsNotStartedAndNothingOfItIsStored() {
    UUID earlier = UUID.randomUUID();
    assertThat(admission.decide(tenant.id(), earlier).admitted()).isTrue(); // the one due run
    RunBeginnings.Beginning refused = triggerCall(Map.of("n", 2));

    assertThatThrownBy(() -> beginnings.begin(refused))
        .isInstanceOfSatisfying(
            RunBeginnings.NotAdmitted.class,
            notAdmitted -> {
              assertThat(notAdmitted.decision().reason()).isEqualTo("due");
              assertThat(notAdmitted.decision().retryAfterSeconds()).isEqualTo(1);
            });

    assertNothingOf(refused.run().id());
    assertThat(admission.dueNow(tenant.id())).as("only the earlier run").isEqualTo(1);
  }

  @Test
  void aTooLargeInputIsRefusedBeforeTheAdmissionAndNothingOfItIsStored() {
    String large = "x".repeat(HistoryPayloads.LIMIT_BYTES);
    RunBeginnings.Beginning tooLarge = triggerCall(Map.of("big", large));

    assertThatThrownBy(() -> beginnings.begin(tooLarge))
        .isInstanceOfSatisfying(
            RunBeginnings.TooLarge.class,
            refused -> {
              assertThat(refused.bytes()).isGreaterThan(HistoryPayloads.LIMIT_BYTES);
              assertThat(refused.canvasBytes()).isEqualTo(HistoryPayloads.bytes(canvas));
            });

    assertNothingOf(tooLarge.run().id());
    assertThat(admission.dueNow(tenant.id())).as("the admission was not asked").isZero();
  }

  @Test
  void aRunBegunInTheCallersTransactionStartsOnlyOnceItCommits() {
    RunBeginnings.Beginning rolledBack = triggerCall(Map.of("n", 3));

    transaction.executeWithoutResult(
        tx -> {
          assertThat(beginnings.begin(rolledBack)).isPresent();
          assertThat(admission.dueNow(tenant.id())).as("admitted meanwhile").isEqualTo(1);
          tx.setRollbackOnly();
        });

    assertNothingOf(rolledBack.run().id());
    assertThat(admission.dueNow(tenant.id())).as("given back with the rollback").isZero();
  }

  @Test
  void aRetryReadsItsChainAndAFreshRunDoesNot() {
    AutomationRun fresh =
        beginnings
            .begin(
                RunBeginnings.Beginning.of(newRun(Map.of("n", 4), null), RunBeginnings.Start.NOW))
            .orElseThrow();
    assertThat(chains.read).as("a fresh run reads no retry chain").hasValue(0);
    assertThat(temporal.newUntypedWorkflowStub(fresh.workflowId()).describe())
        .as("started before begin returned")
        .isNotNull();

    UUID failed = runs.insert(newRun(Map.of("n", 5), null)).orElseThrow().id();
    ending.end(failed, List.of(), RunResult.FAILED, "node later (http_request) failed: HTTP 500");
    AutomationRun retry =
        beginnings
            .begin(
                RunBeginnings.Beginning.of(newRun(Map.of("n", 5), failed), RunBeginnings.Start.NOW)
                    .refusedWhenTooLarge())
            .orElseThrow();

    assertThat(retry.retryOf()).isEqualTo(failed);
    assertThat(chains.read).as("its size check and its start each read the chain").hasValue(2);
    assertThat(temporal.newUntypedWorkflowStub(retry.workflowId()).describe()).isNotNull();
  }

  /** No row, no node log and no workflow of the run, now or a moment later. */
  private void assertNothingOf(UUID runId) {
    assertThat(runs.find(tenant.id(), runId)).isEqualTo(Optional.empty());
    assertThat(runs.loggedNodes(runId)).isEmpty();
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> {
              try {
                temporal.newUntypedWorkflowStub("run-" + runId).describe();
                return false;
              } catch (WorkflowNotFoundException neverStarted) {
                return true;
              }
            });
  }
}
