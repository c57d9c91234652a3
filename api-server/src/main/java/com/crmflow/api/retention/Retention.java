package com.crmflow.api.retention;

import com.crmflow.api.settings.CrmProperties;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.function.IntUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * Keeps the tables that grow with traffic from growing without bound: finished webhook deliveries
 * (with their attempts), dispatched CRM events, hand-over marks and the node effects of ended runs
 * are deleted once older than {@code crm.retention.keep} (30 days by default; 0 keeps everything).
 * Pending deliveries and events not yet dispatched are never touched, whatever their age. The
 * answers kept for Idempotency-Key repeats go after {@code crm.idempotency.keep} (a day), which is
 * part of the API's promise, not of retention; security events (refused calls) after {@code
 * crm.security-events.keep} (90 days); the counts of automation starts per record and minute (the
 * breaker's, {@code crm.events.max-runs-per-record-per-minute}) after an hour; a flow's per-hour
 * counts per node a day after {@code crm.retention.hourly-counts-keep} (31 days; its per-day and
 * all-time counts stay). Run records, enrollments and outbound emails are the product's history and
 * are kept.
 */
@Component
public class Retention implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(Retention.class);

  /** Rows per statement: short transactions that never hold many locks at once. */
  static final int BATCH = 1000;

  /** How long the counts of automation starts per record and minute are kept. */
  static final Duration START_WINDOWS_KEEP = Duration.ofHours(1);

  private final RetentionRepository rows;
  private final Duration keep;
  private final Duration idempotencyKeep;
  private final Duration securityEventsKeep;
  private final CrmProperties.Retention settings;

  Retention(RetentionRepository rows, CrmProperties properties) {
    this.rows = rows;
    this.settings = properties.retention();
    this.keep = settings.keep();
    this.idempotencyKeep = properties.idempotency().keep();
    this.securityEventsKeep = properties.securityEvents().keep();
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(
        new FixedDelayTask(this::purge, settings.interval(), settings.initialDelay()));
  }

  /** One pass: every batch older than the cut-off. */
  public void purge() {
    OffsetDateTime now = OffsetDateTime.now();
    int keys = inBatches(batch -> rows.deleteIdempotentRequests(now.minus(idempotencyKeep), batch));
    if (keys > 0) {
      log.info("Retention: forgot {} Idempotency-Keys older than {}", keys, idempotencyKeep);
    }
    if (!securityEventsKeep.isZero() && !securityEventsKeep.isNegative()) {
      int refusals =
          inBatches(batch -> rows.deleteSecurityEvents(now.minus(securityEventsKeep), batch));
      if (refusals > 0) {
        log.info(
            "Retention: deleted {} security events older than {}", refusals, securityEventsKeep);
      }
    }
    // the breaker reads the current minute's counts only
    inBatches(batch -> rows.deleteStartWindows(now.minus(START_WINDOWS_KEEP), batch));
    // a flow's counts per node keep their days and their total; only the hours go, a day later
    // than the stats stop reading them, so an api-server whose clock is ahead never deletes an
    // hour another one still reads
    if (settings.hourlyCountsExpire()) {
      OffsetDateTime hoursBefore = now.minus(settings.hourlyCountsKeep()).minusDays(1);
      inBatches(batch -> rows.deleteHourlyNodeCounts(hoursBefore, batch));
    }
    if (keep.isZero() || keep.isNegative()) {
      return;
    }
    OffsetDateTime cutOff = now.minus(keep);
    int deliveries = inBatches(batch -> rows.deleteFinishedDeliveries(cutOff, batch));
    int events = inBatches(batch -> rows.deleteDispatchedEvents(cutOff, batch));
    int handOvers = inBatches(batch -> rows.deleteHandOvers(cutOff, batch));
    int nodeEffects = inBatches(batch -> rows.deleteNodeEffects(cutOff, batch));
    int routed = inBatches(batch -> rows.deleteRecordEventDeliveries(cutOff, batch));
    if (deliveries + events + handOvers + nodeEffects + routed > 0) {
      log.info(
          "Retention: deleted {} finished webhook deliveries, {} dispatched events, {} hand-over"
              + " marks, {} node effects and {} routed record events of ended runs, older than {}",
          deliveries,
          events,
          handOvers,
          nodeEffects,
          routed,
          cutOff);
    }
  }

  /** Deletes batch after batch until one comes back short; returns how many rows went. */
  private static int inBatches(IntUnaryOperator deleteBatch) {
    int total = 0;
    int deleted;
    do {
      deleted = deleteBatch.applyAsInt(BATCH);
      total += deleted;
    } while (deleted == BATCH);
    return total;
  }
}
