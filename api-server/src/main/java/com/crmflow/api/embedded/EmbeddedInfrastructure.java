package com.crmflow.api.embedded;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.workflow.CrmSearchAttributes;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the embedded defaults before any bean reads its connection settings, each as a real server
 * in a child process with its data under {@code ${crm.data-dir}}, kept across restarts:
 *
 * <ul>
 *   <li>PostgreSQL ({@code postgres/}), unless {@code spring.datasource.url} is set;
 *   <li>Temporal, the Temporal CLI's dev server with its UI ({@code temporal/}, see {@link
 *       TemporalDevServer}), unless {@code spring.temporal.connection.target} is set.
 * </ul>
 *
 * <p>First it takes the {@link DataDirLock}: a second service on the same directory is refused, and
 * a PostgreSQL or dev server that a killed service left running on its files is stopped before the
 * new ones start.
 *
 * <p>It runs as an environment post-processor because both the datasource and the Temporal starter
 * read their targets from the environment. The started parts are registered as disposable
 * singletons before any other bean exists, so they are shut down last, after the workers and the
 * connection pool.
 */
public class EmbeddedInfrastructure implements EnvironmentPostProcessor, Ordered {

  /** Set to true in the environment when the datasource is the embedded PostgreSQL. */
  public static final String EMBEDDED_POSTGRES_ACTIVE = "crm.embedded.postgres-active";

  /** Set to true in the environment when Temporal is the embedded dev server. */
  public static final String EMBEDDED_TEMPORAL_ACTIVE = "crm.embedded.temporal-active";

  /** The embedded Temporal UI's address, set while the dev server is the embedded one. */
  public static final String TEMPORAL_UI_URL = "crm.embedded.temporal-ui-url";

  /** Name of the singleton bean of the embedded {@link TemporalDevServer}, when it runs. */
  public static final String TEMPORAL_BEAN = "crmEmbeddedTemporal";

  /** How long the embedded PostgreSQL may take to accept connections once started. */
  static final Duration POSTGRES_START_TIMEOUT = Duration.ofSeconds(60);

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
    boolean postgres = !environment.containsProperty("spring.datasource.url");
    boolean temporal = !environment.containsProperty("spring.temporal.connection.target");
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(EMBEDDED_POSTGRES_ACTIVE, postgres);
    properties.put(EMBEDDED_TEMPORAL_ACTIVE, temporal);
    if (postgres || temporal) {
      Binder binder = Binder.get(environment);
      // the settings tree, bound as the context will bind it: it does not exist yet this early
      CrmProperties crm = binder.bindOrCreate("crm", Bindable.of(CrmProperties.class));
      Path dataDir = crm.dataDir().toAbsolutePath();
      CrmProperties.Embedded settings = crm.embedded();
      // pin the resolved value: a placeholder such as ${random.uuid} must not resolve twice
      properties.put("crm.data-dir", dataDir.toString());
      List<AutoCloseable> started = new ArrayList<>();
      try {
        started.add(DataDirLock.acquire(dataDir));
        // before anything starts: finding (or building) the CLI is what most often fails
        Path cli =
            temporal ? GoTool.locate(GoTool.TEMPORAL_CLI, crm.temporal().cli(), System.out) : null;
        if (postgres) {
          started.add(startPostgres(dataDir, settings.postgresPort(), properties));
        }
        if (temporal) {
          String namespace =
              binder.bind("spring.temporal.namespace", String.class).orElse("default");
          started.add(startTemporal(dataDir, settings, cli, namespace, properties));
        }
      } catch (RuntimeException e) {
        closeAll(started);
        throw e;
      }
      application.addListeners(new Lifecycle(started));
    }
    environment.getPropertySources().addFirst(new MapPropertySource("crmEmbedded", properties));
  }

  private AutoCloseable startPostgres(Path dataDir, int configuredPort, Map<String, Object> into) {
    Path pgData = dataDir.resolve("postgres").normalize();
    LeftoverProcesses.postgresOf(pgData)
        .ifPresent(
            leftover -> {
              log.warn(
                  "Stopping PostgreSQL (pid "
                      + leftover.pid()
                      + ") left running on "
                      + pgData
                      + " by a service that ended without stopping it");
              LeftoverProcesses.stop(leftover);
            });
    int port = freePortIfZero(configuredPort);
    try {
      Files.createDirectories(pgData);
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(pgData)
              .setCleanDataDirectory(false)
              .setPort(port)
              // the library gives up after 10 s, which a busy 2-core machine (or a recovery after
              // a kill) can take; the Temporal dev server is given as long (TemporalDevServer)
              .setPGStartupWait(POSTGRES_START_TIMEOUT)
              // stopped by the context, after everything that uses it (see Lifecycle); the
              // library's own JVM hook would stop it while the context is still closing, and a
              // scheduled query then waits 30 s for a connection
              .setRegisterShutdownHook(false)
              // fewer forced checkpoints during bulk writes than the 1 GB default of WAL allows
              .setServerConfig("max_wal_size", "2GB")
              // room for a million contacts' rows and indexes: a page read from the OS cache
              // costs a search several times what a shared buffer does (128 MB by default)
              .setServerConfig("shared_buffers", "512MB")
              // the library starts PostgreSQL for throwaway test databases: without fsync (-F)
              // and with asynchronous commit. Here a commit must be on disk before the trigger
              // answers 200 ("nothing accepted is lost"); -c options come after -F and win.
              .setServerConfig("fsync", "on")
              .setServerConfig("synchronous_commit", "on")
              .start();
      into.put("spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + port + "/postgres");
      into.put("spring.datasource.username", "postgres");
      into.put("spring.datasource.password", "");
      log.info("Embedded PostgreSQL on port " + port + ", data in " + pgData);
      return postgres;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start embedded PostgreSQL in " + pgData, e);
    }
  }

  private AutoCloseable startTemporal(
      Path dataDir,
      CrmProperties.Embedded settings,
      Path cli,
      String namespace,
      Map<String, Object> into) {
    Path dir = dataDir.resolve("temporal");
    // once, before the attempts below: a retry must not lose what the first attempt stopped
    Path database = TemporalDevServer.Settings.databaseIn(dir);
    TemporalDevServer.stopLeftovers(database)
        .forEach(
            pid ->
                log.warn(
                    "Stopped a Temporal dev server (pid "
                        + pid
                        + ") left running on "
                        + database
                        + " by a service that ended without stopping it"));
    TemporalDevServer server = startDevServer(dir, settings, cli, namespace);
    into.put("spring.temporal.connection.target", server.target());
    into.put(TEMPORAL_UI_URL, server.uiUrl());
    log.info(
        "Embedded Temporal dev server (pid "
            + server.pid()
            + ") on "
            + server.target()
            + ", UI "
            + server.uiUrl()
            + ", state in "
            + server.settings().database()
            + ", log in "
            + server.settings().logFile());
    return server;
  }

  /**
   * Starts the dev server. A port found free can be taken by another process before the server
   * binds it: ours, or one the dev server picks for itself. With ports left to choose (0), an exit
   * as it starts is most likely that race, so it chooses again, up to three times.
   */
  private TemporalDevServer startDevServer(
      Path dir, CrmProperties.Embedded settings, Path cli, String namespace) {
    for (int attempt = 1; ; attempt++) {
      try {
        return TemporalDevServer.launch(
            new TemporalDevServer.Settings(
                cli,
                dir,
                freePortIfZero(settings.temporalPort()),
                freePortIfZero(settings.temporalUiPort()),
                namespace,
                CrmSearchAttributes.namesAndTypes(),
                settings.temporalTimerTaskWorkers()));
      } catch (EmbeddedPartUnavailable e) {
        boolean chosenPorts = settings.temporalPort() == 0 || settings.temporalUiPort() == 0;
        boolean portTaken =
            e.getMessage().contains("address already in use")
                || e.getMessage().contains("as it started");
        if (!chosenPorts || attempt == 3 || !portTaken) {
          throw e;
        }
        log.warn("The Temporal dev server's port was taken as it started; choosing others");
      }
    }
  }

  private static int freePortIfZero(int port) {
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
          if (part instanceof TemporalDevServer temporal) {
            registry.registerSingleton(TEMPORAL_BEAN, temporal);
          }
        }
      } else if (event instanceof ApplicationFailedEvent failed
          && failed.getApplicationContext() == null) {
        closeAll(started);
      }
    }
  }
}
