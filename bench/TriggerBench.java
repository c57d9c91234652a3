import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * System-agnostic trigger -> completion benchmark (zero dependencies, JDK 17+).
 *
 * Starts a sink HTTP server (default 127.0.0.1:18080, POST /sink) that records the arrival time of each id,
 * fires N trigger POSTs with body {"id":"<uuid>","t0":<epochMillis>} at --url with bounded concurrency,
 * waits up to --timeout-s for every accepted id to reach the sink and prints latency/throughput figures.
 *
 * Usage:
 *   java TriggerBench.java --url http://127.0.0.1:5678/webhook/bench-a [--n 2000] [--concurrency 32]
 *        [--timeout-s 120] [--header 'X-Secret: abc']... [--sink-host 127.0.0.1] [--sink-port 18080]
 *        [--sink-path /sink] [--request-timeout-s 30] [--warmup 0] [--label name] [--sink-delay-ms 0]
 *        [--send-deadline-s 0]   (stop issuing new triggers after S seconds; 0 = no limit; unsent are reported)
 *        [--rate 0]   (send at most R triggers a second, evenly spaced, as arrivals from outside come; 0 = no limit)
 *   --url takes several URLs separated by commas: the triggers go to them in turn (round-robin, as a
 *   load balancer in front of several api-servers sends them).
 *   --warmup W sends W unmeasured triggers first (<= 20 s sending, <= 15 s waiting for their completions).
 *   java TriggerBench.java --sink-only [--sink-port 18080]   (just run the sink, print arrivals count every 5 s)
 *
 * The system under test must POST (any method is accepted) to the sink a body containing the "id" field
 * (JSON; "id":"..." is matched by regex, so nested/extra fields are fine). Duplicate arrivals are counted separately.
 * Answers 429 and 503 are refusals (a rate limit, a quota or an admission that turns work away): they
 * are counted and reported as refused=, never waited for and never a failure of the harness.
 * The last output line is machine readable and starts with "RESULT ".
 */
public class TriggerBench {

    static final Pattern ID_PATTERN = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    // sink state
    static final ConcurrentHashMap<String, Long> arrivals = new ConcurrentHashMap<>();
    static final AtomicInteger duplicates = new AtomicInteger();
    static final AtomicInteger unknownArrivals = new AtomicInteger();
    static final AtomicInteger sinkRequests = new AtomicInteger();
    static volatile ConcurrentHashMap<String, Long> expected = new ConcurrentHashMap<>(); // id -> t0 (accepted ids)
    static final ConcurrentHashMap<String, Boolean> sentIds = new ConcurrentHashMap<>();
    static volatile CountDownLatch allArrived = new CountDownLatch(1);
    static final AtomicInteger pendingExpected = new AtomicInteger();
    static final AtomicInteger warmupAccepted = new AtomicInteger(); // refused warm-up triggers never arrive
    static volatile double ratePerSecond; // --rate, for the measured triggers only (0: no limit)

    public static void main(String[] argv) throws Exception {
        // Without TCP_NODELAY the JDK HttpServer's header/body writes hit Nagle + delayed ACK (~40 ms per response),
        // which would slow down the system under test's HTTP call to the sink. Must be set before HttpServer loads.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) System.setProperty("sun.net.httpserver.nodelay", "true");
        Map<String, List<String>> a = parseArgs(argv);
        String url = one(a, "url", null);
        int n = Integer.parseInt(one(a, "n", "1000"));
        int concurrency = Integer.parseInt(one(a, "concurrency", "32"));
        int timeoutS = Integer.parseInt(one(a, "timeout-s", "120"));
        int reqTimeoutS = Integer.parseInt(one(a, "request-timeout-s", "30"));
        int warmup = Integer.parseInt(one(a, "warmup", "0"));
        int sendDeadlineS = Integer.parseInt(one(a, "send-deadline-s", "0"));
        String sinkHost = one(a, "sink-host", "127.0.0.1");
        int sinkPort = Integer.parseInt(one(a, "sink-port", "18080"));
        String sinkPath = one(a, "sink-path", "/sink");
        String label = one(a, "label", "run");
        long sinkDelayMs = Long.parseLong(one(a, "sink-delay-ms", "0"));
        boolean sinkOnly = a.containsKey("sink-only");
        List<String[]> headers = new ArrayList<>();
        for (String h : a.getOrDefault("header", List.of())) {
            int i = h.indexOf(':');
            if (i <= 0) die("bad --header (want 'Name: value'): " + h);
            headers.add(new String[]{h.substring(0, i).trim(), h.substring(i + 1).trim()});
        }
        if (!sinkOnly && url == null) die("--url is required (or --sink-only)");

        HttpServer sink = startSink(sinkHost, sinkPort, sinkPath, sinkDelayMs);
        log("sink listening on http://" + sinkHost + ":" + sinkPort + sinkPath);
        if (sinkOnly) {
            while (true) {
                Thread.sleep(5000);
                log("sink: requests=" + sinkRequests.get() + " distinct ids=" + arrivals.size());
            }
        }

        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .executor(Executors.newFixedThreadPool(Math.max(4, Math.min(concurrency, 64))))
                .build();
        List<URI> target = Arrays.stream(url.split(",")).map(String::trim).map(URI::create).toList();

        try {
            // optional warm-up (not measured; sink arrivals for these ids are ignored)
            if (warmup > 0) {
                log("warm-up: " + warmup + " requests");
                fire(client, target, headers, warmup, Math.min(concurrency, warmup), reqTimeoutS, 20, null, null, null);
                long until = System.currentTimeMillis() + Math.min(15_000L, timeoutS * 1000L);
                int want = warmupAccepted.get();
                while (System.currentTimeMillis() < until && arrivals.size() < want) Thread.sleep(50);
                Thread.sleep(500);
                arrivals.clear();
                duplicates.set(0);
                unknownArrivals.set(0);
                sentIds.clear();
            }

            log(label + ": firing " + n + " triggers at " + url + " with concurrency " + concurrency);
            long[] respLatNs = new long[n];
            Arrays.fill(respLatNs, -1);
            int[] status = new int[n];
            Arrays.fill(status, -1); // -1 = never sent (send deadline hit)
            String[] ids = new String[n];
            long[] t0s = new long[n];
            expected = new ConcurrentHashMap<>();
            long firstSend = System.currentTimeMillis();
            long fireStartNs = System.nanoTime();
            ratePerSecond = Double.parseDouble(one(a, "rate", "0"));
            fire(client, target, headers, n, concurrency, reqTimeoutS, sendDeadlineS, respLatNs, status, new Object[]{ids, t0s});
            long fireEndNs = System.nanoTime();
            double fireSecs = (fireEndNs - fireStartNs) / 1e9;

            int sent = 0;
            int accepted = 0, errors = 0, refused = 0;
            Map<Integer, Integer> statusHist = new LinkedHashMap<>();
            List<Long> accLat = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (status[i] == -1) continue;
                sent++;
                statusHist.merge(status[i], 1, Integer::sum);
                if (status[i] >= 200 && status[i] < 300) {
                    accepted++;
                    accLat.add(respLatNs[i]);
                } else if (status[i] == 429 || status[i] == 503) refused++;
                else if (status[i] <= 0) errors++;
            }
            log(String.format(Locale.ROOT, "%s: sending done in %.2f s (%.1f req/s); status histogram %s (0 = transport error/timeout)%s",
                    label, fireSecs, sent / fireSecs, statusHist, sent < n ? "; send deadline hit, unsent=" + (n - sent) : ""));

            // wait for all accepted ids to arrive
            long deadline = System.currentTimeMillis() + timeoutS * 1000L;
            long nextReport = System.currentTimeMillis() + 5000;
            while (System.currentTimeMillis() < deadline) {
                int got = countArrived();
                if (got >= accepted) break;
                if (System.currentTimeMillis() >= nextReport) {
                    log(label + ": waiting, arrived " + got + "/" + accepted);
                    nextReport += 5000;
                }
                Thread.sleep(20);
            }
            Thread.sleep(200); // grace for in-flight duplicates

            List<Long> e2e = new ArrayList<>();
            long lastArrival = Long.MIN_VALUE, firstArrival = Long.MAX_VALUE;
            int completed = 0;
            for (Map.Entry<String, Long> e : expected.entrySet()) {
                Long arr = arrivals.get(e.getKey());
                if (arr != null) {
                    completed++;
                    e2e.add(arr - e.getValue());
                    lastArrival = Math.max(lastArrival, arr);
                    firstArrival = Math.min(firstArrival, arr);
                }
            }
            // arrivals for ids that were sent but whose trigger was not 2xx (e.g. timed-out response that still ran)
            int arrivedUnaccepted = 0;
            for (String id : arrivals.keySet()) if (!expected.containsKey(id) && sentIds.containsKey(id)) arrivedUnaccepted++;
            int lost = accepted - completed;
            double throughput = completed > 0 && lastArrival > firstSend ? completed * 1000.0 / (lastArrival - firstSend) : 0.0;

            long[] acc = accLat.stream().mapToLong(Long::longValue).sorted().toArray();
            long[] ee = e2e.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.println("==== " + label + " ====");
            System.out.println("target url                : " + url);
            System.out.println("triggers sent             : " + sent + " of " + n + " (concurrency " + concurrency + ")");
            System.out.println("accepted (2xx)            : " + accepted + "  refused (429/503): " + refused
                    + "  other non-2xx/errors: " + (sent - accepted - refused) + " " + statusHist);
            System.out.printf(Locale.ROOT, "trigger resp latency ms   : p50=%.2f p99=%.2f max=%.2f%n",
                    pctNs(acc, 50), pctNs(acc, 99), pctNs(acc, 100));
            System.out.printf(Locale.ROOT, "trigger send rate         : %.1f req/s over %.2f s%n", sent / fireSecs, fireSecs);
            System.out.println("completions arrived       : " + completed + " (duplicates " + duplicates.get()
                    + ", arrived-but-not-accepted " + arrivedUnaccepted + ", unknown ids " + unknownArrivals.get() + ")");
            System.out.println("lost (accepted, never arr): " + lost + " (waited up to " + timeoutS + " s)");
            System.out.printf(Locale.ROOT, "end-to-end latency ms     : p50=%d p95=%d p99=%d max=%d%n",
                    pct(ee, 50), pct(ee, 95), pct(ee, 99), pct(ee, 100));
            System.out.printf(Locale.ROOT, "completion throughput     : %.1f /s (completions / (last arrival - first send) = %d / %d ms)%n",
                    throughput, completed, completed > 0 ? lastArrival - firstSend : 0);
            System.out.printf(Locale.ROOT,
                    "RESULT label=%s n=%d sent=%d accepted=%d refused=%d errors=%d completed=%d lost=%d duplicates=%d resp_p50_ms=%.2f resp_p99_ms=%.2f "
                            + "e2e_p50_ms=%d e2e_p95_ms=%d e2e_p99_ms=%d e2e_max_ms=%d throughput_per_s=%.1f%n",
                    label, n, sent, accepted, refused, sent - accepted - refused, completed, lost, duplicates.get(), pctNs(acc, 50), pctNs(acc, 99),
                    pct(ee, 50), pct(ee, 95), pct(ee, 99), pct(ee, 100), throughput);
            System.out.flush();
        } finally {
            sink.stop(0);
        }
        System.exit(0);
    }

    static int countArrived() {
        int c = 0;
        for (String id : expected.keySet()) if (arrivals.containsKey(id)) c++;
        return c;
    }

    /** Fires n POSTs with at most `concurrency` in flight (closed loop: each worker sends the next after a response). */
    static void fire(HttpClient client, List<URI> targets, List<String[]> headers, int n, int concurrency, int reqTimeoutS,
                     int sendDeadlineS, long[] latNs, int[] status, Object[] idsAndT0) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        long stopAt = sendDeadlineS > 0 ? System.nanoTime() + sendDeadlineS * 1_000_000_000L : Long.MAX_VALUE;
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        long paceFrom = System.nanoTime();
        double rate = idsAndT0 == null ? 0 : ratePerSecond;
        for (int w = 0; w < concurrency; w++) {
            pool.submit(() -> {
                int i;
                while (System.nanoTime() < stopAt && (i = next.getAndIncrement()) < n) {
                    if (rate > 0) { // trigger i is due i/rate seconds after the first
                        long wait = paceFrom + (long) (i * 1e9 / rate) - System.nanoTime();
                        if (wait > 0) {
                            try {
                                TimeUnit.NANOSECONDS.sleep(wait);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    }
                    String id = UUID.randomUUID().toString();
                    long t0 = System.currentTimeMillis();
                    sentIds.put(id, Boolean.TRUE);
                    String body = "{\"id\":\"" + id + "\",\"t0\":" + t0 + "}";
                    HttpRequest.Builder rb = HttpRequest.newBuilder(targets.get(i % targets.size()))
                            .timeout(Duration.ofSeconds(reqTimeoutS))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body));
                    for (String[] h : headers) rb.header(h[0], h[1]);
                    int code;
                    long s = System.nanoTime();
                    try {
                        HttpResponse<Void> r = client.send(rb.build(), HttpResponse.BodyHandlers.discarding());
                        code = r.statusCode();
                    } catch (Exception e) {
                        code = 0;
                    }
                    long el = System.nanoTime() - s;
                    if (code >= 200 && code < 300 && idsAndT0 != null) expected.put(id, t0);
                    if (code >= 200 && code < 300 && idsAndT0 == null) warmupAccepted.incrementAndGet();
                    if (latNs != null) {
                        latNs[i] = el;
                        status[i] = code;
                        ((String[]) idsAndT0[0])[i] = id;
                        ((long[]) idsAndT0[1])[i] = t0;
                    }
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.DAYS);
    }

    static HttpServer startSink(String host, int port, String path, long delayMs) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 1024);
        server.createContext(path, (HttpExchange ex) -> {
            long now = System.currentTimeMillis();
            try (InputStream in = ex.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                sinkRequests.incrementAndGet();
                Matcher m = ID_PATTERN.matcher(body);
                if (m.find()) {
                    String id = m.group(1);
                    if (arrivals.putIfAbsent(id, now) != null) duplicates.incrementAndGet();
                    if (!sentIds.containsKey(id)) unknownArrivals.incrementAndGet();
                } else {
                    unknownArrivals.incrementAndGet();
                }
                if (delayMs > 0) Thread.sleep(delayMs);
                byte[] resp = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(200, resp.length);
                try (OutputStream os = ex.getResponseBody()) { os.write(resp); }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                ex.sendResponseHeaders(500, -1);
            } finally {
                ex.close();
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(32));
        server.start();
        return server;
    }

    static double pctNs(long[] sorted, double p) {
        if (sorted.length == 0) return 0;
        return sorted[idx(sorted.length, p)] / 1e6;
    }

    static long pct(long[] sorted, double p) {
        if (sorted.length == 0) return 0;
        return sorted[idx(sorted.length, p)];
    }

    /** nearest-rank percentile index */
    static int idx(int len, double p) {
        int k = (int) Math.ceil(p / 100.0 * len) - 1;
        return Math.max(0, Math.min(len - 1, k));
    }

    static Map<String, List<String>> parseArgs(String[] argv) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < argv.length; i++) {
            String s = argv[i];
            if (!s.startsWith("--")) die("unexpected argument: " + s);
            String k = s.substring(2), v;
            int eq = k.indexOf('=');
            if (eq >= 0) { v = k.substring(eq + 1); k = k.substring(0, eq); }
            else if (k.equals("sink-only") || k.equals("help")) v = "true";
            else if (i + 1 < argv.length) v = argv[++i];
            else { die("missing value for " + s); return m; }
            if (k.equals("help")) { usage(); System.exit(0); }
            m.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        return m;
    }

    static String one(Map<String, List<String>> a, String k, String def) {
        List<String> l = a.get(k);
        return l == null || l.isEmpty() ? def : l.get(l.size() - 1);
    }

    static void usage() {
        System.out.println("java TriggerBench.java --url URL [--n N] [--concurrency C] [--timeout-s S] [--header 'K: V']...\n"
                + "   [--sink-host 127.0.0.1] [--sink-port 18080] [--sink-path /sink] [--request-timeout-s 30]\n"
                + "   [--warmup W] [--label NAME] [--sink-delay-ms 0] [--send-deadline-s 0] | --sink-only");
    }

    static void die(String msg) {
        System.err.println("TriggerBench: " + msg);
        System.exit(2);
    }

    static void log(String s) {
        System.err.println("[" + java.time.LocalTime.now().withNano(0) + "] " + s);
    }
}
