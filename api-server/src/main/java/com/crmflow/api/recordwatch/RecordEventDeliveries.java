package com.crmflow.api.recordwatch;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Signals the events routed to a run to its workflow ({@value AutomationRunWorkflow#RECORD_EVENT}),
 * one run's at a time across api-servers (a lock per run) and in the outbox's order: a delivery
 * that fails stops the run's round, so no later event overtakes it. A delivery is marked in the
 * transaction that holds the lock, after its signal: at least once, and the workflow takes each
 * event once. Right after an event's dispatch, and every {@code crm.events.redeliver-interval} for
 * what is still pending (Temporal was down, the process stopped in between).
 */
@Component
public class RecordEventDeliveries implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(RecordEventDeliveries.class);
  private static final int BATCH = 100;

  private final RecordWatches watches;
  private final WorkflowClient client;
  private final TransactionTemplate transaction;
  private final Duration interval;

  /** Deliveries right after a dispatch; what does not fit is the next round's. */
  private final ThreadPoolExecutor soon =
      new ThreadPoolExecutor(
          2,
          2,
          1,
          TimeUnit.MINUTES,
          new ArrayBlockingQueue<>(1000),
          new CustomizableThreadFactory("record-events-"),
          new ThreadPoolExecutor.DiscardPolicy());

  RecordEventDeliveries(
      RecordWatches watches,
      WorkflowClient client,
      TransactionTemplate transaction,
      CrmProperties properties) {
    this.watches = watches;
    this.client = client;
    this.transaction = transaction;
    this.interval = properties.events().redeliverInterval();
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(new FixedDelayTask(this::deliverPending, interval, interval));
  }

  @PreDestroy
  void stop() {
    soon.shutdownNow();
  }

  void deliverSoon(Collection<UUID> runIds) {
    for (UUID runId : runIds) {
      soon.execute(() -> deliver(runId));
    }
  }

  /** Delivers what waits longer than a round (the deliveries right after a dispatch did not). */
  void deliverPending() {
    try {
      for (UUID runId : watches.runsWithPending(interval.toMillis(), BATCH)) {
        deliver(runId);
      }
    } catch (RuntimeException e) {
      log.warn("Could not look for record events to deliver: {}", e.toString());
    }
  }

  /**
   * Signals the run's pending events in order, each marked once signalled.
   *
   * @return how many it delivered
   */
  public int deliver(UUID runId) {
    try {
      Integer delivered =
          transaction.execute(
              tx -> {
                watches.lockDeliveries(runId);
                int count = 0;
                for (RecordWatches.Pending pending : watches.pending(runId)) {
                  try {
                    client
                        .newUntypedWorkflowStub(
                            pending.workflowId(), Optional.empty(), Optional.empty())
                        .signal(AutomationRunWorkflow.RECORD_EVENT, pending.event());
                    watches.delivered(pending.event(), null);
                    count++;
                  } catch (WorkflowNotFoundException closed) {
                    // the run's workflow has ended: nothing waits for the event any more
                    watches.delivered(pending.event(), "the run's workflow is closed");
                  } catch (RuntimeException notNow) {
                    watches.failed(pending.event(), notNow.toString());
                    log.warn(
                        "Could not deliver event {} to run {} yet: {}",
                        pending.event().eventId(),
                        runId,
                        notNow.toString());
                    break; // the later events wait for it, which keeps their order
                  }
                }
                return count;
              });
      return delivered == null ? 0 : delivered;
    } catch (RuntimeException e) {
      log.warn("Could not deliver the record events of run {}: {}", runId, e.toString());
      return 0;
    }
  }

  /** The runs whose deliveries wait now (for tests and operators). */
  List<UUID> runsWithPending() {
    return watches.runsWithPending(0, BATCH);
  }
}
