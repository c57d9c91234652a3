import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.RetryOptions;
import io.temporal.serviceclient.GrpcCompression;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.servlet.autoconfigure.HttpEncodingAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The floor of the trigger benchmark's flow A on this stack: the least a Temporal-backed service
 * built on it can do per run, to set beside the service's own CPU per run (docs/benchmarks.md,
 * "The floor: the least a Temporal-backed service does per run"). Spring Boot's Tomcat, Spring
 * MVC and Jackson answer the trigger; the Temporal SDK starts a workflow (eager start,
 * uncompressed gRPC on loopback, 8 workflow task pollers: the client and worker settings of the
 * service) whose one workflow task runs one local activity that POSTs to the harness's sink with
 * Apache HttpClient 5, then completes. No database, no run record, no tenant, no tracing, no
 * metrics, no logging per run. The Temporal dev server is the service's own: started by the
 * service's {@code TemporalDevServer} with the service's settings, from the service's jar.
 *
 * <p>Run by {@code BENCH_SERVICE=floor bench/trigger-bench.sh}, on the libraries of the packaged service
 * (extracted with {@code java -Djarmode=tools -jar <jar> extract}):
 *
 * <pre>
 * java -cp 'DIR/lib/*' bench/TemporalFloorService.java SERVICE_JAR DATA_DIR PORT TEMPORAL_PORT
 *     TEMPORAL_UI_PORT SINK_URL
 * </pre>
 *
 * <p>It answers {@code POST /api/webhooks/automation/{tenant}/{path}} (the service's trigger path,
 * any tenant and path) with {@code {"received":true,"workflowId":...}} once the workflow is
 * started, and {@code GET /completed} with the number of runs whose call reached the sink.
 */
public class TemporalFloorService {

  static final String TASK_QUEUE = "floor";

  /** Runs whose sink call answered 2xx: the floor's "completed runs" (JIT_CURVE reads it). */
  static final AtomicLong COMPLETED = new AtomicLong();

  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println(
          "usage: java -cp 'DIR/lib/*' bench/TemporalFloorService.java SERVICE_JAR DATA_DIR PORT"
              + " TEMPORAL_PORT TEMPORAL_UI_PORT SINK_URL");
      System.exit(64);
    }
    Path serviceJar = Path.of(args[0]);
    Path data = Path.of(args[1]);
    int port = Integer.parseInt(args[2]);
    int temporalPort = Integer.parseInt(args[3]);
    int temporalUiPort = Integer.parseInt(args[4]);
    String sink = args[5];

    AutoCloseable devServer = startDevServer(serviceJar, data, temporalPort, temporalUiPort);
    // what is started is stopped in reverse order when the bench ends the process (TERM)
    Deque<AutoCloseable> started = new ConcurrentLinkedDeque<>();
    started.push(devServer);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeAll(started)));
    try {
      WorkflowServiceStubs stubs =
          WorkflowServiceStubs.newServiceStubs(
              WorkflowServiceStubsOptions.newBuilder()
                  .setTarget("127.0.0.1:" + temporalPort)
                  // as the service's LoopbackCompression: no gzip on loopback
                  .setGrpcCompression(GrpcCompression.NONE)
                  .build());
      started.push(stubs::shutdownNow);
      WorkflowClient client =
          WorkflowClient.newInstance(
              stubs, WorkflowClientOptions.newBuilder().setNamespace("default").build());
      Sink sinkCalls = new Sink(sink);
      started.push(sinkCalls);
      WorkerFactory workers = WorkerFactory.newInstance(client);
      Worker worker =
          workers.newWorker(
              TASK_QUEUE,
              // as the service's automation worker (application.properties)
              WorkerOptions.newBuilder().setMaxConcurrentWorkflowTaskPollers(8).build());
      worker.registerWorkflowImplementationTypes(FloorWorkflowImpl.class);
      worker.registerActivitiesImplementations(sinkCalls);
      workers.start();
      started.push(
          () -> {
            workers.shutdownNow();
            workers.awaitTermination(10, TimeUnit.SECONDS);
          });

      SpringApplication web = new SpringApplication(Web.class);
      // the classes of this file are the source launcher's, not the class path's
      ClassLoader here = TemporalFloorService.class.getClassLoader();
      Thread.currentThread().setContextClassLoader(here);
      web.setResourceLoader(new DefaultResourceLoader(here));
      Map<String, Object> settings = new HashMap<>();
      settings.put("server.port", port);
      settings.put("server.address", "127.0.0.1");
      settings.put("logging.level.root", "WARN");
      settings.put("spring.main.banner-mode", "off");
      web.setDefaultProperties(settings);
      web.setRegisterShutdownHook(false);
      web.addInitializers(
          context ->
              ((GenericApplicationContext) context)
                  .registerBean(Trigger.class, () -> new Trigger(client)));
      started.push(web.run());
    } catch (Throwable e) {
      e.printStackTrace();
      System.exit(1); // the hook stops what did start
    }
    System.out.println("floor serving on 127.0.0.1:" + port);
  }

  private static void closeAll(Deque<AutoCloseable> started) {
    while (!started.isEmpty()) {
      try {
        started.pop().close();
      } catch (Exception e) {
        e.printStackTrace();
      }
    }
  }

  /**
   * The service's dev server, started as the service starts it ({@code TemporalDevServer} with the
   * CLI {@code GoTool} finds and the service's search attributes), in {@code DATA_DIR/temporal}.
   * The service's classes come from a class loader of their own: on the web application's class
   * path, the service jar's Spring settings would start the service's embedded PostgreSQL and
   * Temporal as the context starts.
   */
  static AutoCloseable startDevServer(Path serviceJar, Path data, int port, int uiPort)
      throws Exception {
    ClassLoader service =
        new URLClassLoader(
            new URL[] {serviceJar.toUri().toURL()}, TemporalFloorService.class.getClassLoader());
    Class<?> goTool = service.loadClass("com.crmflow.api.embedded.GoTool");
    Class<?> spec = service.loadClass("com.crmflow.api.embedded.GoTool$Spec");
    Object cli =
        goTool
            .getMethod("locate", spec, String.class, PrintStream.class)
            .invoke(
                null,
                goTool.getField("TEMPORAL_CLI").get(null),
                System.getenv("TEMPORAL_CLI"),
                System.err);
    Class<?> devServer = service.loadClass("com.crmflow.api.embedded.TemporalDevServer");
    Class<?> settings = service.loadClass("com.crmflow.api.embedded.TemporalDevServer$Settings");
    Object searchAttributes =
        service
            .loadClass("com.crmflow.workflow.CrmSearchAttributes")
            .getMethod("namesAndTypes")
            .invoke(null);
    Object started =
        devServer
            .getMethod("start", settings)
            .invoke(
                null,
                settings.getConstructors()[0].newInstance(
                    cli, data.resolve("temporal"), port, uiPort, "default", searchAttributes));
    return (AutoCloseable) started;
  }

  /** Tomcat, Spring MVC and Jackson as the service has them, and nothing else. */
  @ImportAutoConfiguration({
    PropertyPlaceholderAutoConfiguration.class,
    TomcatServletWebServerAutoConfiguration.class,
    DispatcherServletAutoConfiguration.class,
    WebMvcAutoConfiguration.class,
    HttpMessageConvertersAutoConfiguration.class,
    HttpEncodingAutoConfiguration.class,
    JacksonAutoConfiguration.class,
    ErrorMvcAutoConfiguration.class
  })
  public static class Web {}

  /** The trigger: starts the run's workflow and answers once Temporal has it. */
  @RestController
  public static class Trigger {
    private final WorkflowClient client;

    Trigger(WorkflowClient client) {
      this.client = client;
    }

    @PostMapping(
        path = "/api/webhooks/automation/{tenant}/{path}",
        consumes = "application/json",
        produces = "application/json")
    public Accepted trigger(
        @PathVariable("tenant") String tenant,
        @PathVariable("path") String path,
        @RequestBody Map<String, Object> payload) {
      String workflowId = "floor-" + UUID.randomUUID();
      FloorWorkflow run =
          client.newWorkflowStub(
              FloorWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setTaskQueue(TASK_QUEUE)
                  .setWorkflowId(workflowId)
                  // the first workflow task comes back with the start's answer, as in the service
                  .setDisableEagerExecution(false)
                  .build());
      WorkflowClient.start(run::run, payload);
      return new Accepted(true, workflowId);
    }

    @GetMapping(path = "/completed", produces = "text/plain")
    public String completed() {
      return Long.toString(COMPLETED.get());
    }
  }

  public record Accepted(boolean received, String workflowId) {}

  @WorkflowInterface
  public interface FloorWorkflow {
    @WorkflowMethod
    void run(Map<String, Object> trigger);
  }

  /** One workflow task: one local activity, then the workflow completes. */
  public static class FloorWorkflowImpl implements FloorWorkflow {
    // the service's http_request retry policy (HttpRequestNode)
    private final SinkCalls sink =
        Workflow.newLocalActivityStub(
            SinkCalls.class,
            LocalActivityOptions.newBuilder()
                .setStartToCloseTimeout(Duration.ofSeconds(35))
                .setRetryOptions(
                    RetryOptions.newBuilder()
                        .setInitialInterval(Duration.ofSeconds(1))
                        .setBackoffCoefficient(2)
                        .setMaximumInterval(Duration.ofMinutes(1))
                        .setMaximumAttempts(5)
                        .build())
                .build());

    @Override
    public void run(Map<String, Object> trigger) {
      sink.post(String.valueOf(trigger.get("id")), String.valueOf(trigger.get("t0")));
    }
  }

  @ActivityInterface
  public interface SinkCalls {
    @ActivityMethod
    void post(String id, String t0);
  }

  /**
   * The sink call: the body flow A's http_request node sends, through a pooled Apache HttpClient 5
   * as the service's OutboundHttpClient has it (no redirects, no retries of its own, no cookies).
   */
  public static class Sink implements SinkCalls, AutoCloseable {
    private final String url;
    private final CloseableHttpClient http =
        HttpClients.custom()
            .setConnectionManager(
                PoolingHttpClientConnectionManagerBuilder.create()
                    .setDefaultConnectionConfig(
                        ConnectionConfig.custom()
                            .setConnectTimeout(Timeout.ofSeconds(10))
                            .setSocketTimeout(Timeout.ofSeconds(60))
                            .build())
                    .setMaxConnTotal(200)
                    .setMaxConnPerRoute(50)
                    .build())
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .build();

    Sink(String url) {
      this.url = url;
    }

    @Override
    public void post(String id, String t0) {
      HttpPost post = new HttpPost(url);
      post.setEntity(
          new StringEntity(
              "{\"id\": \"" + id + "\", \"t0\": \"" + t0 + "\"}", ContentType.APPLICATION_JSON));
      try {
        int status =
            http.execute(
                post,
                response -> {
                  EntityUtils.consume(response.getEntity());
                  return response.getCode();
                });
        if (status / 100 != 2) {
          throw new IllegalStateException("the sink answered " + status);
        }
        COMPLETED.incrementAndGet();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      try {
        http.close();
      } catch (java.io.IOException ignored) {
        // stopping
      }
    }
  }
}
