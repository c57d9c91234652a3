import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fairness between tenants: how much one tenant's flood of public trigger calls slows another
 * tenant's runs and API calls. Run by bench/fairness-bench.sh; JDK 17, one file, no dependencies.
 *
 * <p>Through the admin API it makes tenant A (webhook → http_request POST to a sink on loopback,
 * served by this harness) and tenant B (webhook → create_record of a contact). It measures B alone
 * ("quiet"): B fires one run every B_INTERVAL_MS, RUNS times, while GET /api/v1/contacts and
 * /actuator/health are sampled every SAMPLE_MS; then the same while A's CALLERS callers send A's
 * trigger in a closed loop, as fast as they are answered ("flood"). It prints one RESULT line per
 * phase and one TARGET line per target, and exits 0 once both phases ran (whether or not the
 * targets are met: it reports, it does not judge); 1 when the service did not do what the bench
 * needs (a run of B not completed, an unexpected answer).
 *
 * <p>Environment: BASE_URL, ADMIN_TOKEN (required); RUNS (B's runs per phase, 60), B_INTERVAL_MS
 * (500), CALLERS (32), FLOOD_WARMUP_S (A's flood before B is measured, 5), SAMPLE_MS (100),
 * A_QUOTA (A's own trigger quota per second, set through the admin API; unset: the default),
 * TRIGGER_BASE_URLS (the services the triggers go to, separated by commas, in turn as a round-robin
 * balancer sends them: the api-servers of a cluster; unset: BASE_URL).
 */
public class FairnessBench {

  static final HttpClient HTTP =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .executor(Executors.newCachedThreadPool(daemon()))
          .build();

  static String base;
  static List<String> triggerBases;
  static String adminToken;

  record Tenant(String id, String key) {}

  record Phase(
      String name,
      List<Double> endToEnd,
      List<Double> answers,
      List<Double> contacts,
      List<Double> health,
      double seconds,
      double machineBusy,
      Map<Integer, Long> floodAnswers,
      long sinkCalls,
      Map<String, Double> cpuShares) {}

  public static void main(String[] args) {
    try {
      run();
      System.exit(0);
    } catch (Throwable e) {
      e.printStackTrace();
      System.exit(1); // the pools' threads would keep a failed run alive
    }
  }

  static void run() throws Exception {
    base = env("BASE_URL", null).replaceAll("/$", "");
    triggerBases =
        Arrays.stream(env("TRIGGER_BASE_URLS", base).split(","))
            .map(url -> url.trim().replaceAll("/$", ""))
            .toList();
    adminToken = env("ADMIN_TOKEN", null);
    int runs = Integer.parseInt(env("RUNS", "60"));
    int intervalMs = Integer.parseInt(env("B_INTERVAL_MS", "500"));
    int callers = Integer.parseInt(env("CALLERS", "32"));
    int warmupS = Integer.parseInt(env("FLOOD_WARMUP_S", "5"));
    int sampleMs = Integer.parseInt(env("SAMPLE_MS", "100"));

    AtomicLong sinkCalls = new AtomicLong();
    HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    sink.setExecutor(Executors.newFixedThreadPool(8, daemon()));
    sink.createContext(
        "/sink",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          sinkCalls.incrementAndGet();
          byte[] body = "{}".getBytes();
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    sink.start();
    String sinkUrl = "http://127.0.0.1:" + sink.getAddress().getPort() + "/sink";

    String suffix = UUID.randomUUID().toString().substring(0, 8);
    Tenant a = tenant("fairness A " + suffix);
    Tenant b = tenant("fairness B " + suffix);
    String triggerA = "flood-" + suffix;
    String triggerB = "steady-" + suffix;
    automation(
        a,
        "A: webhook → http_request",
        canvas(
            triggerA,
            """
            {"id":"call","type":"http_request","position":{"x":300,"y":0},"data":{"label":"sink",
             "config":{"method":"POST","url":"%s","headers":{"Content-Type":"application/json"},
             "bodyTemplate":"{\\"n\\": \\"{{trigger.n}}\\"}"}}}
            """
                .formatted(sinkUrl)));
    automation(
        b,
        "B: webhook → create_record",
        canvas(
            triggerB,
            """
            {"id":"make","type":"create_record","position":{"x":300,"y":0},"data":{"label":"contact",
             "config":{"entityType":"contact","fieldMappings":{"first_name":"B {{trigger.n}}",
             "email":"{{trigger.email}}"}}}}
            """));
    String aQuota = System.getenv("A_QUOTA");
    if (aQuota != null && !aQuota.isBlank()) {
      call(
          "PUT",
          "/admin/v1/tenants/" + a.id() + "/trigger-quota",
          adminToken,
          "{\"requests\":" + Integer.parseInt(aQuota.trim()) + ",\"window_seconds\":1}",
          200);
    }
    for (int i = 0; i < 20; i++) { // something to list
      call(
          "POST",
          "/api/v1/contacts",
          b.key(),
          "{\"first_name\":\"Seed %d\",\"email\":\"seed-%d-%s@example.com\"}".formatted(i, i, suffix),
          201);
    }
    System.out.printf(
        "fairness bench: %s, tenant A %s floods with %d callers (trigger quota %s), tenant B %s"
            + " fires every %d ms, %d runs a phase%n",
        base,
        a.id(),
        callers,
        aQuota == null || aQuota.isBlank() ? "the default" : aQuota.trim() + "/s",
        b.id(),
        intervalMs,
        runs);

    Phase quiet = measure("quiet", b, triggerB, runs, intervalMs, sampleMs, null, sinkCalls);
    print(quiet);

    AtomicBoolean flooding = new AtomicBoolean(true);
    Map<Integer, Long> floodAnswers = new ConcurrentHashMap<>();
    ExecutorService flood = Executors.newFixedThreadPool(callers, daemon());
    String floodPath = "/api/webhooks/automation/" + a.id() + "/" + triggerA;
    for (int c = 0; c < callers; c++) {
      flood.submit(
          () -> {
            long n = 0;
            while (flooding.get()) {
              int status;
              try {
                status =
                    HTTP.send(
                            HttpRequest.newBuilder(URI.create(triggerBase(n) + floodPath))
                                .timeout(Duration.ofSeconds(30))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"n\":" + n++ + "}"))
                                .build(),
                            HttpResponse.BodyHandlers.discarding())
                        .statusCode();
              } catch (Exception e) {
                status = -1;
              }
              floodAnswers.merge(status, 1L, Long::sum);
            }
          });
    }
    Thread.sleep(warmupS * 1000L);
    Phase flooded;
    try {
      flooded = measure("flood", b, triggerB, runs, intervalMs, sampleMs, floodAnswers, sinkCalls);
    } finally {
      flooding.set(false);
      flood.shutdown();
    }
    print(flooded);
    target(
        "b_trigger_to_completed_p95",
        pct(flooded.endToEnd(), 95),
        2 * pct(quiet.endToEnd(), 95),
        "2 x quiet p95 " + ms(pct(quiet.endToEnd(), 95)));
    target("b_trigger_answer_p50", pct(flooded.answers(), 50), 100, "100 ms");
    target(
        "b_contacts_p95",
        pct(flooded.contacts(), 95),
        2 * pct(quiet.contacts(), 95),
        "2 x quiet p95 " + ms(pct(quiet.contacts(), 95)));
    // A's accepted runs call the sink after the flood: it answers until they are done
    long last = -1;
    for (int i = 0; i < 60 && sinkCalls.get() != last; i++) {
      last = sinkCalls.get();
      Thread.sleep(1_000);
    }
    sink.stop(0);
  }

  /**
   * B's runs, one every intervalMs, while contacts and health are sampled; then each run's
   * trigger → completed (its completed_at on the service's clock, the same machine's, minus the
   * time the call was sent).
   */
  static Phase measure(
      String name,
      Tenant b,
      String trigger,
      int runs,
      int intervalMs,
      int sampleMs,
      Map<Integer, Long> floodAnswers,
      AtomicLong sinkCalls)
      throws Exception {
    Map<Integer, Long> floodBefore = floodAnswers == null ? Map.of() : Map.copyOf(floodAnswers);
    long sinkBefore = sinkCalls.get();
    long[] cpuBefore = machineTicks();
    Map<String, Long> processBefore = processTicks();
    List<Double> contacts = new CopyOnWriteArrayList<>();
    List<Double> health = new CopyOnWriteArrayList<>();
    AtomicBoolean sampling = new AtomicBoolean(true);
    Thread sampler =
        new Thread(
            () -> {
              while (sampling.get()) {
                try {
                  contacts.add(timed(() -> call("GET", "/api/v1/contacts?limit=50", b.key(), null, 200)));
                  health.add(timed(() -> call("GET", "/actuator/health", null, null, 200)));
                  Thread.sleep(sampleMs);
                } catch (InterruptedException e) {
                  return;
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              }
            });
    sampler.setDaemon(true);
    sampler.start();

    long started = System.nanoTime();
    List<String> runIds = new ArrayList<>();
    List<Long> sentAtMillis = new ArrayList<>();
    List<Double> answers = new ArrayList<>();
    String path = "/api/webhooks/automation/" + b.id() + "/" + trigger;
    for (int i = 0; i < runs; i++) {
      long due = started + (long) i * intervalMs * 1_000_000L;
      long sleep = due - System.nanoTime();
      if (sleep > 0) {
        Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
      }
      String body =
          "{\"n\":%d,\"email\":\"b-%s@example.com\"}".formatted(i, UUID.randomUUID());
      long sentAt = System.currentTimeMillis();
      long t0 = System.nanoTime();
      HttpResponse<String> answer =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(triggerBase(i) + path))
                  .timeout(Duration.ofSeconds(30))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      answers.add((System.nanoTime() - t0) / 1e6);
      if (answer.statusCode() != 200) {
        throw new IllegalStateException(
            name + ": B's trigger answered " + answer.statusCode() + " " + answer.body());
      }
      runIds.add(field(answer.body(), "runId"));
      sentAtMillis.add(sentAt);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    sampling.set(false);
    sampler.join();
    long[] cpuAfter = machineTicks();
    Map<String, Long> processAfter = processTicks();
    Map<String, Double> cpuShares = new java.util.LinkedHashMap<>();
    processAfter.forEach(
        (process, ticks) -> {
          long total = cpuAfter[1] - cpuBefore[1];
          if (total > 0 && processBefore.containsKey(process)) {
            cpuShares.put(process, 100.0 * (ticks - processBefore.get(process)) / total);
          }
        });
    Map<Integer, Long> floodDuring = new java.util.TreeMap<>();
    if (floodAnswers != null) {
      floodAnswers.forEach(
          (status, n) -> floodDuring.put(status, n - floodBefore.getOrDefault(status, 0L)));
    }
    long sinkDuring = sinkCalls.get() - sinkBefore;

    List<Double> endToEnd = new ArrayList<>();
    for (int i = 0; i < runIds.size(); i++) {
      endToEnd.add((double) (completedAt(b, runIds.get(i)) - sentAtMillis.get(i)));
    }
    double busy =
        cpuAfter[1] == cpuBefore[1]
            ? Double.NaN
            : 100.0 * (cpuAfter[0] - cpuBefore[0]) / (cpuAfter[1] - cpuBefore[1]);
    return new Phase(
        name, endToEnd, answers, contacts, health, seconds, busy, floodDuring, sinkDuring, cpuShares);
  }

  /** When the run completed (epoch ms); waits up to 120 s for it. */
  static long completedAt(Tenant b, String runId) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (true) {
      String run = call("GET", "/api/v1/automation-runs/" + runId, b.key(), null, 200);
      String status = field(run, "status");
      if ("completed".equals(status)) {
        return OffsetDateTime.parse(field(run, "completed_at")).toInstant().toEpochMilli();
      }
      if (!"running".equals(status)) {
        throw new IllegalStateException("B's run " + runId + " ended " + status + ": " + run);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("B's run " + runId + " did not complete in 120 s");
      }
      Thread.sleep(100);
    }
  }

  static void print(Phase p) {
    StringBuilder flood = new StringBuilder();
    p.cpuShares()
        .forEach(
            (process, share) ->
                flood.append(String.format(Locale.ROOT, " cpu_%s_pct=%.0f", process, share)));
    if (!p.floodAnswers().isEmpty()) {
      long total = p.floodAnswers().values().stream().mapToLong(Long::longValue).sum();
      flood.append(
          String.format(
              Locale.ROOT, " a_calls_per_s=%.0f a_answers=%s a_runs_called_sink_per_s=%.1f",
              total / p.seconds(), p.floodAnswers(), p.sinkCalls() / p.seconds()));
    }
    System.out.printf(
        Locale.ROOT,
        "RESULT %s b_runs=%d b_trigger_to_completed_p50_ms=%s b_trigger_to_completed_p95_ms=%s"
            + " b_trigger_answer_p50_ms=%s b_trigger_answer_p95_ms=%s b_contacts_p50_ms=%s"
            + " b_contacts_p95_ms=%s health_p95_ms=%s seconds=%.1f machine_busy_pct=%.0f%s%n",
        p.name(),
        p.endToEnd().size(),
        ms(pct(p.endToEnd(), 50)),
        ms(pct(p.endToEnd(), 95)),
        ms(pct(p.answers(), 50)),
        ms(pct(p.answers(), 95)),
        ms(pct(p.contacts(), 50)),
        ms(pct(p.contacts(), 95)),
        ms(pct(p.health(), 95)),
        p.seconds(),
        p.machineBusy(),
        flood);
  }

  static void target(String what, double flood, double limit, String limitText) {
    System.out.printf(
        Locale.ROOT,
        "TARGET %s flood %s ms <= %s (%s ms): %s%n",
        what,
        ms(flood),
        limitText,
        ms(limit),
        flood <= limit ? "met" : "missed");
  }

  static Tenant tenant(String name) throws Exception {
    String tenant = call("POST", "/admin/v1/tenants", adminToken, "{\"name\":\"" + name + "\"}", 201);
    String id = field(tenant, "id");
    String key =
        call(
            "POST",
            "/admin/v1/tenants/" + id + "/api-keys",
            adminToken,
            "{\"name\":\"fairness bench\",\"scopes\":[\"*\"]}",
            201);
    return new Tenant(id, field(key, "key"));
  }

  static void automation(Tenant t, String name, String canvas) throws Exception {
    String created =
        call(
            "POST",
            "/api/v1/sequences",
            t.key(),
            "{\"name\":\"" + name + "\",\"flow_type\":\"automation\",\"builder_mode\":\"visual\"}",
            201);
    String id = field(created, "id");
    call("PUT", "/api/sequences/" + id + "/canvas", t.key(), canvas, 200);
    call("PATCH", "/api/v1/sequences/" + id, t.key(), "{\"status\":\"active\"}", 200);
  }

  static String canvas(String triggerId, String step) {
    return """
        {"nodes":[{"id":"%s","type":"webhook_trigger","position":{"x":0,"y":0},
          "data":{"label":"in","config":{}}},%s],
         "edges":[{"id":"e1","source":"%s","target":"%s"}]}
        """
        .formatted(triggerId, step, triggerId, field(step, "id"));
  }

  /** The service the n-th trigger call goes to: each of TRIGGER_BASE_URLS in turn. */
  static String triggerBase(long n) {
    return triggerBases.get((int) (n % triggerBases.size()));
  }

  static String call(String method, String path, String bearer, String body, int expected)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != expected) {
      throw new IllegalStateException(
          method + " " + path + " answered " + answer.statusCode() + ": " + answer.body());
    }
    return answer.body();
  }

  interface Call {
    String run() throws Exception;
  }

  static double timed(Call call) throws Exception {
    long t0 = System.nanoTime();
    call.run();
    return (System.nanoTime() - t0) / 1e6;
  }

  /** The first string value of this field in a JSON text. */
  static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
    if (!m.find()) {
      throw new IllegalStateException("no " + name + " in " + json);
    }
    return m.group(1);
  }

  static double pct(List<Double> values, int p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  static String ms(double value) {
    return String.format(Locale.ROOT, "%.0f", value);
  }

  /** Busy and total jiffies of the whole machine, from /proc/stat (zeros where there is none). */
  static long[] machineTicks() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long user = Long.parseLong(f[1]), nice = Long.parseLong(f[2]), system = Long.parseLong(f[3]);
      long idle = Long.parseLong(f[4]), iowait = Long.parseLong(f[5]), irq = Long.parseLong(f[6]);
      long softirq = Long.parseLong(f[7]), steal = Long.parseLong(f[8]);
      long busy = user + nice + system + irq + softirq + steal;
      return new long[] {busy, busy + idle + iowait};
    } catch (IOException | RuntimeException e) {
      return new long[] {0, 0};
    }
  }

  /**
   * CPU ticks (user + system) of this harness and of the processes named in WATCH_PIDS
   * ("service=123 temporal=456"), from /proc; shares are of the whole machine (all cores).
   */
  static Map<String, Long> processTicks() {
    Map<String, Long> ticks = new java.util.LinkedHashMap<>();
    List<String> watched = new ArrayList<>();
    watched.add("harness=" + ProcessHandle.current().pid());
    String pids = System.getenv("WATCH_PIDS");
    if (pids != null && !pids.isBlank()) {
      watched.addAll(List.of(pids.trim().split("\\s+")));
    }
    for (String entry : watched) {
      String[] nameAndPid = entry.split("=", 2);
      try {
        String stat = Files.readString(Path.of("/proc", nameAndPid[1], "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        ticks.put(nameAndPid[0], Long.parseLong(f[11]) + Long.parseLong(f[12]));
      } catch (IOException | RuntimeException e) {
        // not on Linux, or the process is gone: no share for it
      }
    }
    return ticks;
  }

  static String env(String name, String fallback) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      if (fallback == null) {
        throw new IllegalArgumentException(name + " is required");
      }
      return fallback;
    }
    return value;
  }

  static java.util.concurrent.ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r);
      t.setDaemon(true);
      return t;
    };
  }
}
