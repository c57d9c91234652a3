package com.crmflow.api.run;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * How runs come due, told to the admission of every api-server of a deployment ({@code
 * crm.runs.shared-by-api-servers}). An api-server's admission counts the runs it let in; their
 * recordings (a run starts waiting on a delay, a run ends) go through the {@code crm} task queue to
 * whichever api-server polls it first. So each recording is applied here and also sent to the
 * others through PostgreSQL's {@code NOTIFY} on channel {@value #CHANNEL}, in batches of up to
 * {@value #BATCH_BYTES} bytes (one statement per batch, sent at most {@link #SEND_EVERY} after its
 * first event); each api-server listens on a connection of its own and tells its admission, which
 * counts only the runs it let in and ignores the others'.
 *
 * <p>A notification is lost when its listener is disconnected (the database restarted): the
 * admission then forgets a run it counted after {@link RunAdmission#FORGET_DUE_AFTER}, as it does a
 * run whose end it never hears of.
 */
@Component
@Primary
@ConditionalOnExpression(
    "${crm.runs.shared-by-api-servers:false} and ${crm.trigger.admission.max-due-runs:32} > 0")
class SharedRunProgress implements RunProgress, SmartLifecycle {

  static final String CHANNEL = "crm_run_progress";

  /** Under PostgreSQL's 8,000-byte limit on a notification's payload. */
  static final int BATCH_BYTES = 7_000;

  static final Duration SEND_EVERY = Duration.ofMillis(10);

  private static final Logger log = LoggerFactory.getLogger(SharedRunProgress.class);
  private static final Duration RECONNECT_AFTER = Duration.ofSeconds(1);

  private final RunAdmission admission;
  private final JdbcClient jdbc;
  private final DataSource dataSource;

  /** This process's id in the payloads: its own notifications are applied already. */
  private final String sender = UUID.randomUUID().toString().substring(0, 8);

  private final BlockingQueue<String> outbox = new LinkedBlockingQueue<>(100_000);
  private volatile boolean running;
  private volatile boolean listening;
  private Thread publisher;
  private Thread listener;

  SharedRunProgress(RunAdmission admission, JdbcClient jdbc, DataSource dataSource) {
    this.admission = admission;
    this.jdbc = jdbc;
    this.dataSource = dataSource;
  }

  @Override
  public void waitsUntil(UUID runId, Instant until) {
    admission.waitsUntil(runId, until);
    send("w " + runId + " " + until.toEpochMilli());
  }

  @Override
  public void ended(UUID runId) {
    admission.ended(runId);
    send("e " + runId);
  }

  private void send(String event) {
    if (!outbox.offer(event)) {
      log.debug("run progress outbox full: {} not sent", event);
    }
  }

  /** Applies one batch another api-server sent; its own are applied already. */
  void apply(String payload) {
    String[] lines = payload.split("\n");
    if (lines.length == 0 || lines[0].equals(sender)) {
      return;
    }
    for (int i = 1; i < lines.length; i++) {
      String[] parts = lines[i].split(" ");
      try {
        UUID runId = UUID.fromString(parts[1]);
        if (parts[0].equals("w") && parts.length == 3) {
          admission.waitsUntil(runId, Instant.ofEpochMilli(Long.parseLong(parts[2])));
        } else if (parts[0].equals("e")) {
          admission.ended(runId);
        }
      } catch (RuntimeException garbled) {
        log.debug("ignored run progress {}: {}", lines[i], garbled.toString());
      }
    }
  }

  @Override
  public void start() {
    running = true;
    publisher = daemon("run-progress-publisher", this::publish);
    listener = daemon("run-progress-listener", this::listen);
  }

  private static Thread daemon(String name, Runnable work) {
    Thread thread = new Thread(work, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  @Override
  public void stop() {
    running = false;
    publisher.interrupt();
    listener.interrupt();
  }

  /** Whether it hears the other api-servers now (what they sent before is not heard). */
  boolean listening() {
    return listening;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  private void publish() {
    List<String> events = new ArrayList<>();
    while (running) {
      try {
        String first = outbox.poll(1, TimeUnit.SECONDS);
        if (first == null) {
          continue;
        }
        events.add(first);
        TimeUnit.NANOSECONDS.sleep(SEND_EVERY.toNanos());
        outbox.drainTo(events);
        StringBuilder batch = new StringBuilder(sender);
        for (String event : events) {
          if (batch.length() + event.length() + 1 > BATCH_BYTES) {
            notify(batch.toString());
            batch = new StringBuilder(sender);
          }
          batch.append('\n').append(event);
        }
        notify(batch.toString());
      } catch (InterruptedException stopping) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException unreachable) {
        log.warn("Could not tell the other api-servers how runs go: {}", unreachable.toString());
      }
      events.clear();
    }
  }

  private void notify(String payload) {
    jdbc.sql("select pg_notify(:channel, :payload)")
        .param("channel", CHANNEL)
        .param("payload", payload)
        .query()
        .singleRow();
  }

  private void listen() {
    while (running) {
      try (Connection connection = listenerConnection()) {
        try (Statement listen = connection.createStatement()) {
          listen.execute("LISTEN " + CHANNEL);
        }
        listening = true;
        PGConnection notifications = connection.unwrap(PGConnection.class);
        while (running) {
          PGNotification[] received = notifications.getNotifications(1_000);
          if (received != null) {
            for (PGNotification notification : received) {
              apply(notification.getParameter());
            }
          }
        }
      } catch (SQLException | RuntimeException lost) {
        listening = false;
        if (!running) {
          return;
        }
        log.warn(
            "Lost the run progress of the other api-servers; listening again: {}", lost.toString());
        try {
          TimeUnit.NANOSECONDS.sleep(RECONNECT_AFTER.toNanos());
        } catch (InterruptedException stopping) {
          return;
        }
      }
    }
  }

  /** A connection of its own, outside the pool: it listens for as long as the process runs. */
  private Connection listenerConnection() throws SQLException {
    if (dataSource instanceof HikariDataSource hikari) {
      return DriverManager.getConnection(
          hikari.getJdbcUrl(), hikari.getUsername(), hikari.getPassword());
    }
    return dataSource.getConnection();
  }
}
