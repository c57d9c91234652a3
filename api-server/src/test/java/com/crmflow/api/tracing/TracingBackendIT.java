package com.crmflow.api.tracing;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.fire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiServerProcess;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Browsers;
import com.crmflow.api.support.DevServers;
import com.crmflow.api.support.ListeningSockets;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.OtelCollector;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.WorkerProcess;
import com.crmflow.api.support.ZipkinServer;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * One trace from the caller to the last outbound call, read back from a real tracing backend in the
 * distributed shape: an api-server and a workflow-worker from their jars and a Temporal dev server.
 * Both services export with the standard OTLP exporter (the api-server configured by {@code
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}, the worker by {@code
 * management.opentelemetry.tracing.export.otlp.endpoint}) to a real OpenTelemetry Collector, which
 * forwards to a Zipkin server, whose query API and UI show the trace; both backend processes listen
 * on 127.0.0.1 only. A trigger fired with a caller's traceparent makes one trace with the caller's
 * trace id: the HTTP request, the workflow start, the workflow task, each activity and the outbound
 * call, in that order, each a descendant of the one before. The trace's page in the Zipkin UI is
 * kept as {@code target/tracing-ui/trace.png} (docs/operations.md shows it).
 */
class TracingBackendIT {

  private static final String SECRETS_KEY = "RRGwdKW/pSzaULDAQjpucZj2GZEQcEIt9soxswx+Vm4=";
  private static final Path SCREENSHOTS = Path.of("target", "tracing-ui");

  private ZipkinServer zipkin;
  private OtelCollector collector;
  private TemporalDevServer temporal;
  private GreenMail smtp;
  private LocalHttpServer peer;
  private ApiServerProcess api;
  private WorkerProcess worker;

  @BeforeEach
  void startTheParts() throws Exception {
    zipkin = ZipkinServer.start();
    collector = OtelCollector.start(zipkin);
    temporal = DevServers.start();
    smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", "smtp"));
    smtp.start();
    peer = new LocalHttpServer();
    String exportSoon = "--management.opentelemetry.tracing.export.schedule-delay=200ms";
    List<String> apiSettings =
        new ArrayList<>(
            List.of(
                "--spring.profiles.active=distributed",
                "--crm.secrets.key=" + SECRETS_KEY,
                "--spring.temporal.connection.target=" + temporal.target()));
    apiSettings.add(exportSoon);
    api =
        ApiServerProcess.start(
            Files.createTempDirectory(Path.of("target"), "tracing-"),
            Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", collector.tracesEndpoint()),
            apiSettings.toArray(String[]::new));
    List<String> workerSettings =
        new ArrayList<>(
            List.of(
                "--spring.mail.host=127.0.0.1",
                "--spring.mail.port=" + smtp.getSmtp().getPort(),
                "--crm.mail.from=flows@crm.example",
                "--crm.secrets.key=" + SECRETS_KEY));
    workerSettings.add(
        "--management.opentelemetry.tracing.export.otlp.endpoint=" + collector.tracesEndpoint());
    workerSettings.add(exportSoon);
    worker = WorkerProcess.start(temporal.target(), workerSettings.toArray(String[]::new));
    api.awaitReady();
    worker.awaitReady();
  }

  @AfterEach
  void stopTheParts() throws Exception {
    if (worker != null) {
      worker.close();
    }
    if (api != null) {
      api.close();
    }
    if (temporal != null) {
      temporal.close();
    }
    if (peer != null) {
      peer.close();
    }
    if (smtp != null) {
      smtp.stop();
    }
    if (collector != null) {
      collector.close();
    }
    if (zipkin != null) {
      zipkin.close();
    }
  }

  @Test
  void aTriggeredRunIsOneTraceFromTheCallerToItsOutboundCalls() throws Exception {
    // the backend's processes listen on loopback only
    assertThat(ListeningSockets.of(collector.pid()))
        .as("the collector's listening sockets")
        .isNotEmpty()
        .allSatisfy(a -> assertThat(a.getAddress().isLoopbackAddress()).as(a.toString()).isTrue())
        .anySatisfy(a -> assertThat(a.getPort()).isEqualTo(collector.port()));
    assertThat(ListeningSockets.of(zipkin.pid()))
        .as("the Zipkin server's listening sockets")
        .isNotEmpty()
        .allSatisfy(a -> assertThat(a.getAddress().isLoopbackAddress()).as(a.toString()).isTrue())
        .anySatisfy(a -> assertThat(a.getPort()).isEqualTo(zipkin.port()));

    ApiTest.TenantClient tenant = api.newTenant();
    ApiClient client = new ApiClient(api.baseUrl(), tenant.key());
    String contactId =
        client.post("/api/v1/contacts", Map.of("email", "traced@example.com")).text("/contact/id");
    peer.answer("/traced", 200, "{}");
    activeAutomation(
        client,
        chain(
            "hook",
            node("call", "http_request", Map.of("method", "POST", "url", peer.url("/traced"))),
            node("mail", "email", Map.of("subject", "traced", "body", "one trace"))));
    String traceId = UUID.randomUUID().toString().replace("-", "");
    String callerSpan = traceId.substring(0, 16);

    String runId =
        fire(
            api.anonymous().withHeader("traceparent", "00-" + traceId + "-" + callerSpan + "-01"),
            tenant.id(),
            "hook",
            Map.of("contact_id", contactId));
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> client.get("/api/v1/automation-runs/" + runId).text("/run/status"),
            "completed"::equals);

    // what the run record, the receiver and the email say
    assertThat(client.get("/api/v1/automation-runs/" + runId).text("/run/trace_id"))
        .isEqualTo(traceId);
    String sent = peer.received("/traced").get(0).header("traceparent");
    assertThat(sent).startsWith("00-" + traceId + "-");
    MimeMessage[] mails = smtp.getReceivedMessages();
    assertThat(mails).hasSize(1);
    assertThat(mails[0].getHeader("X-Trace-Id")).containsExactly(traceId);

    // what the tracing backend holds: the spans of both processes, in one trace
    List<JsonNode> spans = new ArrayList<>();
    await()
        .atMost(Patience.EVENTUALLY)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              spans.clear();
              zipkin.trace(traceId).forEach(spans::add);
              return named(spans, "runactivity:email") != null && named(spans, "http post") != null;
            });
    spans.sort(Comparator.comparingLong(s -> s.get("timestamp").asLong()));
    List<String> names = spans.stream().map(s -> s.get("name").asString()).toList();
    Files.createDirectories(SCREENSHOTS);
    Files.writeString(SCREENSHOTS.resolve("trace.json"), zipkin.trace(traceId).toPrettyString());
    assertThat(spans).allSatisfy(s -> assertThat(s.get("traceId").asString()).isEqualTo(traceId));

    JsonNode request = first(spans, "SERVER", "http post /api/webhooks/automation");
    JsonNode start = named(spans, "startworkflow:automationrunworkflow");
    JsonNode callActivity = named(spans, "runactivity:http_request");
    JsonNode call = first(spans, "CLIENT", "http post");
    JsonNode mailActivity = named(spans, "runactivity:email");
    assertThat(List.of(request, start, callActivity, call, mailActivity))
        .as("spans of the trace: %s", names)
        .doesNotContainNull();
    // the workflow task that scheduled the call (a worker that picks the run up again after an
    // eviction replays it in a workflow task span of its own)
    JsonNode task =
        spans.stream()
            .filter(s -> s.get("name").asString().equals("runworkflow:automationrunworkflow"))
            .filter(s -> ancestors(spans, callActivity).contains(s.get("id").asString()))
            .findFirst()
            .orElse(null);
    assertThat(task).as("the workflow task above the call, among %s", names).isNotNull();
    assertThat(request.get("parentId").asString()).as("the caller's span").isEqualTo(callerSpan);
    assertThat(request.at("/localEndpoint/serviceName").asString()).isEqualTo("crm-api-server");
    assertThat(start.at("/localEndpoint/serviceName").asString()).isEqualTo("crm-api-server");
    assertThat(task.at("/localEndpoint/serviceName").asString()).isEqualTo("crm-workflow-worker");
    assertThat(call.at("/localEndpoint/serviceName").asString()).isEqualTo("crm-workflow-worker");
    assertThat(peer.url("/traced"))
        .contains("127.0.0.1:" + call.at("/tags/target.port").asString() + "/");
    // the request's SQL statements are spans of it
    assertThat(spans)
        .anySatisfy(
            s -> {
              assertThat(s.get("name").asString()).isEqualTo("query");
              assertThat(s.get("parentId").asString()).isEqualTo(request.get("id").asString());
            });
    // each a descendant of the one before, and started after it
    List<JsonNode> path = List.of(request, start, task, callActivity, call);
    for (int i = 1; i < path.size(); i++) {
      assertThat(ancestors(spans, path.get(i)))
          .as("%s under %s", path.get(i).get("name"), path.get(i - 1).get("name"))
          .contains(path.get(i - 1).get("id").asString());
      assertThat(path.get(i).get("timestamp").asLong())
          .isGreaterThanOrEqualTo(path.get(i - 1).get("timestamp").asLong());
    }
    assertThat(ancestors(spans, mailActivity)).contains(start.get("id").asString());
    assertThat(mailActivity.get("timestamp").asLong())
        .isGreaterThan(call.get("timestamp").asLong());
    // the node log names each node's span: the trigger's request, the call's activity (the
    // parent of the outbound call), and the workflow task above the email's activities
    JsonNode log = client.get("/api/v1/automation-runs/" + runId).at("/run/node_log");
    assertThat(log.get(0).get("spanId").asString()).isEqualTo(request.get("id").asString());
    assertThat(log.get(1).get("spanId").asString()).isEqualTo(callActivity.get("id").asString());
    assertThat(call.get("parentId").asString()).isEqualTo(callActivity.get("id").asString());
    assertThat(ancestors(spans, mailActivity)).contains(log.get(2).get("spanId").asString());

    screenshot(traceId);
  }

  /** The ids of the span's parents, up to the root of what the backend holds. */
  private static List<String> ancestors(List<JsonNode> spans, JsonNode span) {
    Map<String, JsonNode> byId = new HashMap<>();
    spans.forEach(s -> byId.put(s.get("id").asString(), s));
    List<String> ids = new ArrayList<>();
    JsonNode at = span;
    while (at != null && at.hasNonNull("parentId")) {
      String parent = at.get("parentId").asString();
      ids.add(parent);
      at = byId.get(parent);
    }
    return ids;
  }

  private static JsonNode named(List<JsonNode> spans, String name) {
    return spans.stream()
        .filter(s -> s.get("name").asString().equals(name))
        .findFirst()
        .orElse(null);
  }

  private static JsonNode first(List<JsonNode> spans, String kind, String namePrefix) {
    return spans.stream()
        .filter(s -> kind.equals(s.path("kind").asString()))
        .filter(s -> s.get("name").asString().startsWith(namePrefix))
        .findFirst()
        .orElse(null);
  }

  /** The trace's page in the Zipkin UI, as an operator sees it. */
  private void screenshot(String traceId) throws Exception {
    WebDriver browser = Browsers.headlessChromium();
    try {
      browser.get(zipkin.tracePage(traceId));
      new WebDriverWait(browser, Patience.EVENTUALLY)
          .until(
              ExpectedConditions.textToBePresentInElementLocated(
                  By.tagName("body"), "runworkflow:automationrunworkflow"));
      Files.createDirectories(SCREENSHOTS);
      Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
      Files.move(shot, SCREENSHOTS.resolve("trace.png"), StandardCopyOption.REPLACE_EXISTING);
    } finally {
      browser.quit();
    }
  }
}
