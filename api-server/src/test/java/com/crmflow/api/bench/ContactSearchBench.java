package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiTest;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Contact search and upsert at scale: 1,000,000 contacts in one tenant plus 200,000 in others, then
 * p50/p99 of GET /api/v1/contacts?search=... over HTTP and upserts per second, on a service warmed
 * up until its JIT compiler is done ({@code WarmUp}) and through a blocking client ({@link
 * BenchHttp}). Not a test: it asserts only that the calls succeed, and prints its figures. Run with
 * {@code ./mvnw -pl api-server -am verify -Pbench -Dtest=ContactSearchBench}.
 */
@Tag("bench")
class ContactSearchBench extends ApiTest {

  private static final int CONTACTS = Integer.getInteger("bench.contacts", 1_000_000);
  private static final int OTHER_TENANT_CONTACTS = CONTACTS / 5;

  @Test
  void searchAndUpsertOnALargeTenant() throws Exception {
    var owner = newTenant();
    // a key of its own with a budget far above what the benchmark sends
    String key = issueKey(owner.id(), List.of("*"), 1_000_000);
    ApiClient api = withKey(key);
    BenchHttp http = new BenchHttp(baseUrl(), key, UPSERT_THREADS);
    var other = newTenant();
    long loadStart = System.nanoTime();
    load(owner.id(), CONTACTS);
    load(other.id(), OTHER_TENANT_CONTACTS);
    loadDealsAndConversations(owner.id(), CONTACTS / 5);
    // what autovacuum does after a bulk load: statistics and the visibility map
    jdbc.sql("vacuum analyze contact").update();
    jdbc.sql("vacuum analyze opportunity").update();
    jdbc.sql("vacuum analyze conversation").update();
    double loadSeconds = (System.nanoTime() - loadStart) / 1e9;

    List<String> terms =
        List.of(
            "lovelace",
            "ada love",
            "hopper",
            "grace",
            "turing",
            "engines",
            "navy",
            "kernel",
            "lamarr",
            "hedy",
            "c123",
            "@domain7",
            "company 42",
            "user9999",
            "liskov");
    // warm-up: the figures are of a running service, not of its first calls (interpreted code,
    // cold caches right after the load). Blocks of ten rounds of the calls measured below, until
    // the JIT compiler has finished with them (see WarmUp). Searches go through both clients, as
    // both are measured
    double machineSpeedAtReads = machineSpeed();
    MachineTime.Since readsStart = MachineTime.now();
    WarmUp readWarmUp = new WarmUp(READ_WARM_UP_BLOCKS);
    readWarmUp.untilWarm(
        () -> {
          int calls = 0;
          for (int round = 0; round < 10; round++) {
            for (String term : terms) {
              http.get(searchPath(term));
              api.get(searchPath(term));
              calls += 2;
            }
            for (int i = 0; i < 20; i++) {
              http.get("/api/v1/contacts?limit=50&offset=" + (i * 250));
              http.get(
                  "/api/v1/contacts?email=user"
                      + (i * 7919)
                      + "@domain"
                      + (i * 7919 % 10)
                      + ".example");
              http.get("/api/v1/opportunities?limit=50&offset=" + (i * 250));
              http.get("/api/v1/conversations?limit=50&offset=" + (i * 250));
              calls += 4;
            }
          }
          return calls;
        });
    MachineTime.Since measuredReadsStart = MachineTime.now();
    List<Long> searchMicros = new ArrayList<>();
    List<Long> broadMicros = new ArrayList<>();
    List<Long> searchByTestClientMicros = new ArrayList<>();
    List<String> broad = List.of("lovelace", "hopper", "grace", "turing", "lamarr", "hedy");
    for (int round = 0; round < 20; round++) {
      for (String term : terms) {
        String path = searchPath(term);
        long micros = timed(http, path);
        searchMicros.add(micros);
        if (broad.contains(term)) {
          broadMicros.add(micros);
        }
        // the same call through the tests' client, for what a client's own overhead adds
        long start = System.nanoTime();
        assertThat(api.get(path).status()).isEqualTo(200);
        searchByTestClientMicros.add((System.nanoTime() - start) / 1000);
      }
    }
    List<Long> deepSearchMicros = new ArrayList<>();
    for (int round = 0; round < 10; round++) {
      for (String term : broad) {
        deepSearchMicros.add(
            timed(http, "/api/v1/contacts?search=" + term + "&offset=" + (round * 95)));
      }
    }
    List<Long> emailMicros = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      emailMicros.add(
          timed(
              http,
              "/api/v1/contacts?email=user"
                  + (i * 9973)
                  + "@domain"
                  + (i * 9973 % 10)
                  + ".example"));
    }
    List<Long> listMicros = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      listMicros.add(timed(http, "/api/v1/contacts?limit=50&offset=" + (i * 50)));
    }
    List<Long> cursorMicros = new ArrayList<>();
    String after = null;
    for (int i = 0; i < 300; i++) {
      long start = System.nanoTime();
      BenchHttp.Answer page =
          http.get("/api/v1/contacts?limit=50" + (after == null ? "" : "&after=" + after));
      cursorMicros.add((System.nanoTime() - start) / 1000);
      assertThat(page.status()).isEqualTo(200);
      after = JSON.readTree(page.body()).path("next_after").asString();
    }
    List<Long> opportunityMicros = new ArrayList<>();
    List<Long> conversationMicros = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      opportunityMicros.add(timed(http, "/api/v1/opportunities?limit=50&offset=" + (i * 50)));
      conversationMicros.add(timed(http, "/api/v1/conversations?limit=50&offset=" + (i * 50)));
    }
    String timesOfMeasuredReads = measuredReadsStart.shares();
    String timesOfReads = readsStart.shares();

    // upserts warm up as they are measured (8 threads, half new, half updates of other contacts),
    // round after round until the JIT compiler has finished with them
    WarmUp upsertWarmUp = new WarmUp(UPSERT_WARM_UP_ROUNDS);
    AtomicInteger upsertRound = new AtomicInteger();
    upsertWarmUp.untilWarm(
        () -> {
          int round = upsertRound.getAndIncrement();
          upserts(http, "warm-up-" + round, CONTACTS / 2 + round * UPSERTS_PER_ROUND);
          return UPSERTS_PER_ROUND;
        });
    double machineSpeedAtUpserts = machineSpeed();
    MachineTime.Since upsertsStart = MachineTime.now();
    long upsertStart = System.nanoTime();
    List<Long> upsertMicros = upserts(http, "bench", 0);
    double upsertSeconds = (System.nanoTime() - upsertStart) / 1e9;
    String timesOfUpserts = upsertsStart.shares();

    // the upserts left tens of thousands of new rows and index entries not yet vacuumed: search
    // again, as a list is searched while contacts come in
    List<Long> searchAfterUpsertsMicros = new ArrayList<>();
    for (int round = 0; round < 20; round++) {
      for (String term : terms) {
        searchAfterUpsertsMicros.add(timed(http, searchPath(term)));
      }
    }

    String report =
        """
        Contact search benchmark: %,d contacts in the tenant, %,d in another (load %.0f s)
          machine speed (SHA-256, one thread) %.0f MB/s before the reads, %.0f MB/s before the upserts
          machine during the reads with their warm-up: %s
          machine during the measured reads: %s
          machine during the measured upserts: %s
          reads after warm-up blocks:%s
          GET /contacts?search=... first pages     %s
            of which broad terms (10%% each)      %s
            the same through the tests' JDK client %s
          GET /contacts?search=<broad>&offset=0-855 %s
          GET /contacts?email=...                 %s
          GET /contacts pages by offset           %s
          GET /contacts pages by cursor (after)   %s
          GET /opportunities pages                %s
          GET /conversations pages                %s
          POST /contacts (upsert), %d threads     %d in %.1f s = %.0f upserts/s; %s
            after warm-up rounds:%s
          GET /contacts?search=... after the upserts %s
          slowest reads:
        %s
        """
            .formatted(
                CONTACTS,
                OTHER_TENANT_CONTACTS,
                loadSeconds,
                machineSpeedAtReads,
                machineSpeedAtUpserts,
                timesOfReads,
                timesOfMeasuredReads,
                timesOfUpserts,
                readWarmUp,
                figures(searchMicros),
                figures(broadMicros),
                figures(searchByTestClientMicros),
                figures(deepSearchMicros),
                figures(emailMicros),
                figures(listMicros),
                figures(cursorMicros),
                figures(opportunityMicros),
                figures(conversationMicros),
                UPSERT_THREADS,
                upsertMicros.size(),
                upsertSeconds,
                upsertMicros.size() / upsertSeconds,
                figures(upsertMicros),
                upsertWarmUp,
                figures(searchAfterUpsertsMicros),
                slowestCalls());
    http.close();
    System.out.println(report);
    java.nio.file.Files.writeString(java.nio.file.Path.of("target/bench-contacts.txt"), report);
  }

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** The first page of a search for {@code term}. */
  private static String searchPath(String term) {
    return "/api/v1/contacts?search=" + term.replace(" ", "%20");
  }

  /**
   * How fast this machine runs right now: SHA-256 over 512 MB on one thread, in MB/s. A virtual
   * machine's speed drifts (by up to 2× within an hour here), and every figure of a run moves with
   * it; the report puts them beside the speed they ran at.
   */
  private static double machineSpeed() throws Exception {
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    byte[] megabyte = new byte[1 << 20];
    long start = System.nanoTime();
    for (int i = 0; i < 512; i++) {
      sha256.update(megabyte);
    }
    sha256.digest();
    return 512 / ((System.nanoTime() - start) / 1e9);
  }

  private static final int UPSERT_THREADS = 8;
  private static final int UPSERTS_PER_THREAD = 1000;
  private static final int UPSERTS_PER_ROUND = UPSERT_THREADS * UPSERTS_PER_THREAD;

  /**
   * {@code POST /contacts} from 8 threads at once, each alternating a new email (named with {@code
   * prefix}) and an update of a loaded contact (numbered from {@code firstUpdated}).
   *
   * @return each call's time in microseconds
   */
  private static List<Long> upserts(BenchHttp http, String prefix, int firstUpdated)
      throws InterruptedException {
    AtomicInteger failures = new AtomicInteger();
    List<Long> micros = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(UPSERT_THREADS);
    for (int t = 0; t < UPSERT_THREADS; t++) {
      int thread = t;
      pool.submit(
          () -> {
            for (int i = 0; i < UPSERTS_PER_THREAD; i++) {
              int loaded = firstUpdated + thread * UPSERTS_PER_THREAD + i;
              String email =
                  i % 2 == 0
                      ? prefix + "-" + thread + "-" + i + "@new.example"
                      : "user" + loaded + "@domain" + (loaded % 10) + ".example";
              long start = System.nanoTime();
              BenchHttp.Answer r =
                  http.post(
                      "/api/v1/contacts",
                      JSON.writeValueAsString(Map.of("email", email, "title", "T" + i)));
              micros.add((System.nanoTime() - start) / 1000);
              if (r.status() != 201) {
                failures.incrementAndGet();
              }
            }
          });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.MINUTES)).isTrue();
    assertThat(failures.get()).isZero();
    return micros;
  }

  private void load(UUID tenantId, int count) {
    int batch = 100_000;
    for (int from = 0; from < count; from += batch) {
      jdbc.sql(
              """
              insert into contact
                (id, tenant_id, email, first_name, last_name, company, title, created_at)
              select gen_random_uuid(), :tenantId,
                     'user' || n || '@domain' || (n % 10) || '.example',
                     (array['Ada','Grace','Alan','Linus','Hedy','Barbara','Edsger','Donald','Margaret','Ken'])[1 + n % 10],
                     (array['Lovelace','Hopper','Turing','Torvalds','Lamarr','Liskov','Dijkstra','Knuth','Hamilton','Thompson'])[1 + (n / 10) % 10] || ' ' || (n % 997),
                     'Company ' || (n % 5000),
                     'Title ' || (n % 50),
                     -- one contact a minute, as a CRM's contacts come in over the years
                     now() - (:count - n) * interval '1 minute'
              from generate_series(:from, :to) n
              """)
          .param("tenantId", tenantId)
          .param("from", from)
          .param("to", Math.min(count, from + batch) - 1)
          .param("count", count)
          .update();
    }
  }

  /** Opportunities and conversations (one per contact of the first ones) for their lists. */
  private void loadDealsAndConversations(UUID tenantId, int count) {
    jdbc.sql(
            """
            insert into opportunity (id, tenant_id, name)
            select gen_random_uuid(), :tenantId, 'Deal ' || n from generate_series(1, :count) n
            """)
        .param("tenantId", tenantId)
        .param("count", count)
        .update();
    jdbc.sql(
            """
            insert into conversation (id, tenant_id, contact_id, channel, last_activity_at)
            select gen_random_uuid(), :tenantId, id, 'email', created_at
            from contact where tenant_id = :tenantId limit :count
            """)
        .param("tenantId", tenantId)
        .param("count", count)
        .update();
  }

  /** A measured read: its path and time. */
  private record TimedCall(String path, long micros) {}

  /** Every measured read, for the slowest ones in the report. */
  private final List<TimedCall> timedCalls = new ArrayList<>();

  private long timed(BenchHttp http, String path) {
    long start = System.nanoTime();
    BenchHttp.Answer page = http.get(path);
    long micros = (System.nanoTime() - start) / 1000;
    assertThat(page.status()).as(path + " " + page.body()).isEqualTo(200);
    timedCalls.add(new TimedCall(path, micros));
    return micros;
  }

  /** The five slowest measured reads, one per line. */
  private String slowestCalls() {
    return timedCalls.stream()
        .sorted(Comparator.comparingLong(TimedCall::micros).reversed())
        .limit(5)
        .map(call -> "    %.1f ms %s".formatted(call.micros() / 1000.0, call.path()))
        .collect(Collectors.joining("\n"));
  }

  /** At most this many warm-up blocks of reads, of about 1,100 calls each. */
  private static final int READ_WARM_UP_BLOCKS = 40;

  /** At most this many warm-up rounds of upserts: each adds 4,000 contacts to the tenant. */
  private static final int UPSERT_WARM_UP_ROUNDS = 15;

  /**
   * Blocks of calls until the JIT compiler has finished with them: until a block spends less than
   * 5% of its time compiling and runs no more than 5% faster than the one before. On 2 cores the
   * compiler takes a core from the calls while it works, and it goes on compiling the service's
   * request path for some 20,000 calls; a rate alone settles while it still does, so a warm-up by
   * rate ended early and measured a half-compiled service.
   */
  private static final class WarmUp {

    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    private final int maxBlocks;
    private final List<Double> rates = new ArrayList<>();
    private final List<Double> compilingShares = new ArrayList<>();
    private final List<String> machineShares = new ArrayList<>();

    WarmUp(int maxBlocks) {
      assertThat(JIT.isCompilationTimeMonitoringSupported())
          .as("a JVM that reports its JIT compiler's time (HotSpot)")
          .isTrue();
      this.maxBlocks = maxBlocks;
    }

    /** Runs {@code block} (which answers how many calls it made) until warm. */
    void untilWarm(Callable<Integer> block) throws Exception {
      do {
        long compilingMillis = JIT.getTotalCompilationTime();
        MachineTime.Since blockStart = MachineTime.now();
        long start = System.nanoTime();
        int calls = block.call();
        double seconds = (System.nanoTime() - start) / 1e9;
        rates.add(calls / seconds);
        compilingShares.add((JIT.getTotalCompilationTime() - compilingMillis) / 1000.0 / seconds);
        machineShares.add(blockStart.shares());
      } while (goesOn());
    }

    private boolean goesOn() {
      int blocks = rates.size();
      if (blocks < 2) {
        return true;
      }
      boolean compiling = compilingShares.get(blocks - 1) >= 0.05;
      boolean speedingUp = rates.get(blocks - 1) > 1.05 * rates.get(blocks - 2);
      return (compiling || speedingUp) && blocks < maxBlocks;
    }

    /**
     * Each block on a line of its own: its rate (calls/s), the share of its time the JIT compiler
     * worked, and where the machine's time went ({@link MachineTime}).
     */
    @Override
    public String toString() {
      StringBuilder blocks = new StringBuilder();
      for (int i = 0; i < rates.size(); i++) {
        blocks.append(
            "\n      %4.0f/s (JIT %3.0f%%, %s)"
                .formatted(rates.get(i), 100 * compilingShares.get(i), machineShares.get(i)));
      }
      return blocks.toString();
    }
  }

  private static String figures(List<Long> micros) {
    return "n=%d p50 %.1f ms p99 %.1f ms max %.1f ms"
        .formatted(
            micros.size(), percentile(micros, 50), percentile(micros, 99), percentile(micros, 100));
  }

  private static double percentile(List<Long> micros, int p) {
    List<Long> sorted = new ArrayList<>(micros);
    Collections.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1))) / 1000.0;
  }
}
