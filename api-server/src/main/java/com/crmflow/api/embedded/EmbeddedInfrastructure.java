package com.crmflow.api.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the embedded defaults before any bean reads its connection settings: an embedded
 * PostgreSQL (data under {@code ${crm.data-dir}/postgres}, kept across restarts) unless {@code
 * spring.datasource.url} is set, and a Temporal test server unless {@code
 * spring.temporal.connection.target} is set (see {@link EmbeddedTemporal}).
 *
 * <p>It runs as an environment post-processor because both the datasource and the Temporal starter
 * read their targets from the environment. The started parts are registered as disposable
 * singletons before any other bean exists, so they are shut down last, after the workers and the
 * connection pool.
 */
public class EmbeddedInfrastructure implements EnvironmentPostProcessor, Ordered {

  /** Set to true in the environment when the datasource is the embedded PostgreSQL. */
  public static final String EMBEDDED_POSTGRES_ACTIVE = "crm.embedded.postgres-active";

  /** Set to true in the environment when Temporal is the embedded test server. */
  public static final String EMBEDDED_TEMPORAL_ACTIVE = "crm.embedded.temporal-active";

  private final Log log;

  public EmbeddedInfrastructure(DeferredLogFactory logFactory) {
    this.log = logFactory.getLog(EmbeddedInfrastructure.class);
  }

  @Override
  public int getOrder() {
    // after application.properties, profiles and command-line arguments are all known
    return Ordered.LOWEST_PRECEDENCE;
  }

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    if (environment.getProperty(EMBEDDED_POSTGRES_ACTIVE) != null) {
      return; // already prepared for this environment (e.g. a child context)
    }
    Map<String, Object> properties = new LinkedHashMap<>();
    List<AutoCloseable> started = new ArrayList<>();
    try {
      if (!environment.containsProperty("spring.datasource.url")) {
        started.add(startPostgres(environment, properties));
      }
      properties.put(EMBEDDED_POSTGRES_ACTIVE, !started.isEmpty());
      if (!environment.containsProperty("spring.temporal.connection.target")) {
        started.add(startTemporal(environment, properties));
        properties.put(EMBEDDED_TEMPORAL_ACTIVE, true);
      } else {
        properties.put(EMBEDDED_TEMPORAL_ACTIVE, false);
      }
    } catch (RuntimeException e) {
      closeAll(started);
      throw e;
    }
    environment.getPropertySources().addFirst(new MapPropertySource("crmEmbedded", properties));
    if (!started.isEmpty()) {
      application.addListeners(new Lifecycle(started));
    }
  }

  private AutoCloseable startPostgres(
      ConfigurableEnvironment environment, Map<String, Object> properties) {
    Path dataDir = Path.of(environment.getProperty("crm.data-dir", "./data"));
    Path pgData = dataDir.resolve("postgres").toAbsolutePath().normalize();
    int port = freePortIfZero(environment.getProperty("crm.embedded.postgres-port", "0"));
    try {
      Files.createDirectories(pgData);
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(pgData)
              .setCleanDataDirectory(false)
              .setPort(port)
              // stopped by the context, after everything that uses it (see Lifecycle); the
              // library's own JVM hook would stop it while the context is still closing, and a
              // scheduled query then waits 30 s for a connection
              .setRegisterShutdownHook(false)
              // fewer forced checkpoints during bulk writes than the 1 GB default of WAL allows
              .setServerConfig("max_wal_size", "2GB")
              // the library starts PostgreSQL for throwaway test databases: without fsync (-F)
              // and with asynchronous commit. Here a commit must be on disk before the trigger
              // answers 200 ("nothing accepted is lost"); -c options come after -F and win.
              .setServerConfig("fsync", "on")
              .setServerConfig("synchronous_commit", "on")
              .start();
      properties.put("spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + port + "/postgres");
      properties.put("spring.datasource.username", "postgres");
      properties.put("spring.datasource.password", "");
      // pin the resolved value: a placeholder such as ${random.uuid} must not resolve twice
      properties.put("crm.data-dir", dataDir.toString());
      log.info("Embedded PostgreSQL on port " + port + ", data in " + pgData);
      return postgres;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start embedded PostgreSQL in " + pgData, e);
    }
  }

  private AutoCloseable startTemporal(
      ConfigurableEnvironment environment, Map<String, Object> properties) {
    int port = freePortIfZero(environment.getProperty("crm.embedded.temporal-port", "7233"));
    String keepClosed = environment.getProperty("crm.embedded.temporal-keep-closed", "15m");
    String keepCompleted =
        environment.getProperty("crm.embedded.temporal-keep-completed", keepClosed);
    int keepClosedAtMost =
        environment.getProperty("crm.embedded.temporal-keep-closed-max", Integer.class, 10_000);
    EmbeddedTemporal temporal =
        EmbeddedTemporal.start(
            port,
            DurationStyle.detectAndParse(keepClosed),
            DurationStyle.detectAndParse(keepCompleted),
            keepClosedAtMost);
    temporal.fixProblems().forEach(problem -> log.warn("Temporal test server: " + problem));
    properties.put("spring.temporal.connection.target", temporal.target());
    log.info("Embedded Temporal test server on 127.0.0.1:" + port + " and in-process");
    return temporal;
  }

  private static int freePortIfZero(String configured) {
    int port = Integer.parseInt(configured.trim());
    if (port != 0) {
      return port;
    }
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  private static void closeAll(List<AutoCloseable> started) {
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception ignored) {
        // shutting down: nothing more useful to do with a failure here
      }
    }
  }

  /** Hands the started parts to the context (closed last) or closes them if start-up fails. */
  private record Lifecycle(List<AutoCloseable> started)
      implements ApplicationListener<ApplicationEvent> {

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
      if (event instanceof ApplicationPreparedEvent prepared) {
        var registry =
            (DefaultSingletonBeanRegistry) prepared.getApplicationContext().getBeanFactory();
        for (int i = 0; i < started.size(); i++) {
          AutoCloseable part = started.get(i);
          registry.registerDisposableBean("crmEmbeddedPart" + i, part::close);
          if (part instanceof EmbeddedTemporal temporal) {
            // picked up by InProcessTemporalChannel: this JVM's client and workers skip the socket
            registry.registerSingleton(EmbeddedTemporal.BEAN_NAME, temporal);
          }
        }
      } else if (event instanceof ApplicationFailedEvent failed
          && failed.getApplicationContext() == null) {
        closeAll(started);
      }
    }
  }
}
