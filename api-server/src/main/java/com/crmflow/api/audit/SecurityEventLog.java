package com.crmflow.api.audit;

import com.crmflow.api.settings.CrmProperties;
import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Writes the security events of refused calls, a bounded number a minute: each source (the API key
 * a call named, where it is a known one; else the caller's address) adds at most {@code
 * crm.security-events.rows-per-source-per-minute} rows in a minute, and all sources together at
 * most {@code rows-per-minute}. A refusal beyond either cap adds one to the {@code repeats} of the
 * last row its source wrote in that minute (of the minute's last row, when the source wrote none),
 * so a flood of bad keys grows counts, not the table. The counts are written every few seconds, so
 * this process's repeats are at most that late. Each api-server counts its own calls.
 */
@Component
public class SecurityEventLog {

  private final SecurityEventRepository rows;
  private final CrmProperties.SecurityEvents settings;
  private final Clock clock;

  /** The minute counted, as minutes since the epoch. */
  private long minute = Long.MIN_VALUE;

  private int rowsThisMinute;
  private long lastRowThisMinute;
  private final Map<String, Source> sources = new HashMap<>();

  /** Refusals folded into rows, by row id, not written yet. */
  private Map<Long, Integer> pendingRepeats = new HashMap<>();

  private static final class Source {
    int rows;
    long lastRow;
  }

  @Autowired
  SecurityEventLog(SecurityEventRepository rows, CrmProperties properties) {
    this(rows, properties.securityEvents(), Clock.systemUTC());
  }

  SecurityEventLog(
      SecurityEventRepository rows, CrmProperties.SecurityEvents settings, Clock clock) {
    this.rows = rows;
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * Keeps a call refused before it reached the API's pipeline (a management endpoint's wrong admin
   * token): no key, no tenant, the caller's address as its source.
   */
  public void refused(HttpServletRequest request, int status, String actor, String reason) {
    refused(
        null,
        null,
        actor,
        request.getMethod(),
        request.getRequestURI(),
        status,
        reason,
        request.getRemoteAddr());
  }

  /** Keeps one refused call: a row, or one more repeat of a row. */
  synchronized void refused(
      UUID tenantId,
      UUID apiKeyId,
      String actor,
      String method,
      String path,
      int status,
      String reason,
      String remoteAddress) {
    long now = clock.millis() / 60_000;
    if (now != minute) {
      minute = now;
      rowsThisMinute = 0;
      sources.clear();
    }
    String key = apiKeyId != null ? "key " + apiKeyId : "address " + remoteAddress;
    Source source = sources.get(key);
    boolean sourceFull = source != null && source.rows >= settings.rowsPerSourcePerMinute();
    if (sourceFull || rowsThisMinute >= settings.rowsPerMinute()) {
      long row = source != null ? source.lastRow : lastRowThisMinute;
      pendingRepeats.merge(row, 1, Integer::sum);
      return;
    }
    // the write happens under the lock: at most rows-per-minute of them a minute
    long row = rows.insert(tenantId, apiKeyId, actor, method, path, status, reason, remoteAddress);
    if (source == null) {
      source = new Source();
      sources.put(key, source);
    }
    source.rows++;
    source.lastRow = row;
    rowsThisMinute++;
    lastRowThisMinute = row;
  }

  /** Writes the repeats counted since the last time. */
  @Scheduled(fixedDelay = 2_000)
  @PreDestroy
  void flush() {
    Map<Long, Integer> due;
    synchronized (this) {
      if (pendingRepeats.isEmpty()) {
        return;
      }
      due = pendingRepeats;
      pendingRepeats = new HashMap<>();
    }
    due.forEach(rows::addRepeats);
  }
}
