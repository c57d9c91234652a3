import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Enrollment benchmark: creates a linear 3-step sequence (email, wait 2 days, email,
 * wait 2 days, email), N contacts, enrolls them all with C concurrent clients, and waits until
 * every enrollment has sent its first email and waits on its first delay.
 *
 * <p>java bench/EnrollBench.java BASE_URL API_KEY N C
 */
public class EnrollBench {

  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  static String base;
  static String key;

  public static void main(String[] args) {
    try {
      run(args);
      System.exit(0);
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1); // the pools' threads would keep a failed run alive
    }
  }

  static void run(String[] args) throws Exception {
    base = args[0];
    key = args[1];
    int n = Integer.parseInt(args[2]);
    int c = Integer.parseInt(args[3]);

    String sequence = field(call("POST", "/api/v1/sequences", "{\"name\":\"bench 3 steps\"}"), "id");
    call(
        "PUT",
        "/api/v1/sequences/" + sequence + "/steps",
        """
        {"steps": [
          {"type": "email", "config": {"subject": "Hello {{contact.first_name}}"}},
          {"type": "delay", "config": {"delayDays": 2}},
          {"type": "email", "config": {"subject": "Still there?"}},
          {"type": "delay", "config": {"delayDays": 2}},
          {"type": "email", "config": {"subject": "Last call"}}
        ]}
        """);
    call("PATCH", "/api/v1/sequences/" + sequence, "{\"status\":\"active\"}");

    String[] contacts = new String[n];
    long t0 = System.nanoTime();
    parallel(
        n,
        c,
        i ->
            contacts[i] =
                field(
                    call(
                        "POST",
                        "/api/v1/contacts",
                        "{\"email\":\"bench-" + i + "@example.com\",\"first_name\":\"B" + i + "\"}"),
                    "id"));
    double contactSeconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf("RESULT contacts=%d seconds=%.1f per_s=%.0f%n", n, contactSeconds, n / contactSeconds);

    long[] latency = new long[n];
    t0 = System.nanoTime();
    parallel(
        n,
        c,
        i -> {
          long s = System.nanoTime();
          call(
              "POST",
              "/api/v1/sequences/enroll",
              "{\"sequence_id\":\"" + sequence + "\",\"contact_id\":\"" + contacts[i] + "\"}");
          latency[i] = System.nanoTime() - s;
        });
    double enrollSeconds = (System.nanoTime() - t0) / 1e9;
    Arrays.sort(latency);
    System.out.printf(
        "RESULT enrollments=%d seconds=%.1f per_s=%.0f p50_ms=%.1f p99_ms=%.1f%n",
        n,
        enrollSeconds,
        n / enrollSeconds,
        latency[n / 2] / 1e6,
        latency[(int) (n * 0.99)] / 1e6);

    t0 = System.nanoTime();
    while (true) {
      int emails = total(call("GET", "/api/v1/outbound-emails?limit=1", null));
      int waiting =
          total(
              call(
                  "GET",
                  "/api/v1/automation-runs?limit=1&status=running&sequence_id=" + sequence,
                  null));
      if (emails >= n && waiting >= n) {
        break;
      }
      if ((System.nanoTime() - t0) / 1e9 > 1800) {
        throw new IllegalStateException("not all waiting after 30 min: emails " + emails);
      }
      Thread.sleep(2000);
    }
    System.out.printf(
        "RESULT all_waiting_after_enroll_s=%.1f sequence=%s%n",
        (System.nanoTime() - t0) / 1e9, sequence);
  }

  interface Task {
    void run(int i) throws Exception;
  }

  static void parallel(int n, int c, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(c);
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> workers = new ArrayList<>();
    for (int w = 0; w < c; w++) {
      workers.add(
          pool.submit(
              () -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                  task.run(i);
                }
                return null;
              }));
    }
    for (Future<?> f : workers) {
      f.get();
    }
    pool.shutdown();
  }

  static String call(String method, String path, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Authorization", "Bearer " + key)
            .timeout(Duration.ofSeconds(60));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    request.method(
        method,
        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() >= 300) {
      throw new IllegalStateException(method + " " + path + " -> " + response.statusCode() + " " + response.body());
    }
    return response.body();
  }

  static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
    if (!m.find()) {
      throw new IllegalStateException("no " + name + " in " + json);
    }
    return m.group(1);
  }

  static int total(String json) {
    Matcher m = Pattern.compile("\"total\"\\s*:\\s*(\\d+)").matcher(json);
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }
}
