package com.crmflow.api.settings;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The api-server's own settings, all under {@code crm.}: the one place they are read. The settings
 * of the integration activities, which the stand-alone worker reads too, are {@link
 * com.crmflow.shared.outbound.IntegrationProperties} ({@code crm.mail}, {@code crm.http}, {@code
 * crm.secrets}). Both are checked as the service starts: a bad value stops it with a message naming
 * the property. docs/configuration.md lists every one (a test holds it to the metadata).
 *
 * @param dataDir where the embedded PostgreSQL and Temporal dev server keep their data
 * @param adminToken bearer token of the admin API; the admin API is off while it is unset
 * @param maxRequestSize largest request body accepted on the API (413 beyond)
 */
@ConfigurationProperties("crm")
@Validated
public record CrmProperties(
    @DefaultValue("./data") @NotNull Path dataDir,
    String adminToken,
    @DefaultValue("1MB") @NotNull DataSize maxRequestSize,
    @DefaultValue @Valid Embedded embedded,
    @DefaultValue @Valid Temporal temporal,
    @DefaultValue @Valid Bootstrap bootstrap,
    @DefaultValue @Valid ApiKeys apiKeys,
    @DefaultValue @Valid RateLimit rateLimit,
    @DefaultValue @Valid Buckets buckets,
    @DefaultValue @Valid Generate generate,
    @DefaultValue @Valid Runs runs,
    @DefaultValue @Valid Enrollments enrollments,
    @DefaultValue @Valid Trigger trigger,
    @DefaultValue @Valid Schedules schedules,
    @DefaultValue @Valid Events events,
    @DefaultValue @Valid Webhooks webhooks,
    @DefaultValue @Valid CloseCheck closeCheck,
    @DefaultValue @Valid Retention retention,
    @DefaultValue @Valid SecurityEvents securityEvents,
    @DefaultValue @Valid Idempotency idempotency,
    @DefaultValue @Valid Chat chat,
    @DefaultValue @Valid Tracing tracing) {

  /**
   * The embedded defaults: each part starts only while its real counterpart is not configured
   * ({@code spring.datasource.url}, {@code spring.temporal.connection.target}).
   *
   * @param postgresPort port of the embedded PostgreSQL (0: any free port)
   * @param temporalPort gRPC port of the embedded Temporal dev server (0: any free port)
   * @param temporalUiPort port of its Temporal UI (0: any free port)
   * @param temporalTimerTaskWorkers goroutines of the dev server that fire its timers and timeouts
   *     ({@code history.timerProcessorSchedulerWorkerCount}, Temporal's default 512): few, so that
   *     a start keeps its turn at the server's one SQLite connection while thousands of timers fall
   *     due at once
   */
  public record Embedded(
      @DefaultValue("0") @Min(0) @Max(65535) int postgresPort,
      @DefaultValue("7233") @Min(0) @Max(65535) int temporalPort,
      @DefaultValue("8233") @Min(0) @Max(65535) int temporalUiPort,
      @DefaultValue("8") @Min(1) @Max(4096) int temporalTimerTaskWorkers) {}

  /**
   * @param cli the {@code temporal} CLI whose dev server is the embedded Temporal; unset: looked up
   *     on PATH, then in the tool cache, else built there (see GoTool)
   * @param uiUrl the Temporal UI's address, linked from the console and GET /api/v1/me; unset: the
   *     embedded dev server's UI, if it runs
   */
  public record Temporal(String cli, String uiUrl) {}

  /**
   * The tracing UI an operator opens a run's trace in (the spans themselves go where the standard
   * settings say: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, management.opentelemetry.*,
   * management.tracing.*).
   *
   * @param uiUrl the address of one trace in the tracing UI, with {@code {trace_id}} where the
   *     trace id goes (Jaeger: {@code http://jaeger:16686/trace/{trace_id}}, Zipkin: {@code
   *     http://zipkin:9411/zipkin/traces/{trace_id}}); linked from the console's run view and GET
   *     /api/v1/me. Unset: no link.
   */
  public record Tracing(
      @Pattern(
              regexp = "https?://\\S*\\{trace_id}\\S*",
              message = "must be an http(s) address with \\{trace_id\\} where the trace id goes")
          String uiUrl) {}

  /**
   * @param apiKey a key to create on first start (in tenant "default", every scope) if absent
   */
  public record Bootstrap(String apiKey) {}

  /**
   * @param cacheFor how long a process trusts a key it has looked up before it looks again. A key
   *     revoked through this process stops at once; revoked through another instance of the
   *     service, it stops here within this time. 0: every request looks its key up.
   */
  public record ApiKeys(@DefaultValue("1s") @NotNull Duration cacheFor) {}

  /**
   * Per-key request budget on the authenticated API (a key may carry its own limit).
   *
   * @param enabled whether requests are limited at all
   * @param requestsPerMinute the default budget of a key, refilled evenly over the minute
   */
  public record RateLimit(
      @DefaultValue("true") boolean enabled, @DefaultValue("1200") @Min(1) int requestsPerMinute) {}

  /**
   * Enrollments.
   *
   * @param bulk bulk enrollments ({@code POST /api/v1/sequences/{id}/enrollments/bulk})
   */
  public record Enrollments(@DefaultValue @Valid Bulk bulk) {

    /**
     * The pace of a bulk enrollment job.
     *
     * @param pageSize contacts enrolled per page
     * @param pause the pause after each page (a job enrolls at most page-size contacts per pause)
     */
    public record Bulk(
        @DefaultValue("100") @Min(1) @Max(1000) int pageSize,
        @DefaultValue("100ms") @NotNull Duration pause) {}
  }

  /**
   * Where the token buckets of the per-key rate limit and the tenants' trigger quotas live.
   *
   * @param shared in the service's PostgreSQL (table {@code token_bucket}, Bucket4j's PostgreSQL
   *     integration), so that every api-server of a deployment draws on one bucket per key; false:
   *     in this process's memory (one process is the whole deployment on the embedded defaults)
   * @param localPercent the share of a bucket's quota (0 to 50 %) a process may take between two
   *     synchronizations with the shared bucket (Bucket4j's delaying optimization): 0 synchronizes
   *     every call (concurrent calls on one bucket still go in one statement)
   * @param localFor the longest a process goes without synchronizing when {@code localPercent} is
   *     above 0
   * @param keepIdle how long a bucket's row is kept after the bucket is full again
   */
  public record Buckets(
      @DefaultValue("false") boolean shared,
      @DefaultValue("0") @Min(0) @Max(50) int localPercent,
      @DefaultValue("1s") @NotNull Duration localFor,
      @DefaultValue("1m") @NotNull Duration keepIdle) {}

  /**
   * POST /generate.
   *
   * @param requestsPerMinute generations per tenant per minute (429 beyond)
   * @param maxPromptLength longest prompt accepted (400 beyond)
   * @param llm the language model that drafts flows (off by default: the offline parser answers)
   */
  public record Generate(
      @DefaultValue("10") @Min(1) int requestsPerMinute,
      @DefaultValue("2000") @Min(1) int maxPromptLength,
      @DefaultValue @Valid Llm llm) {}

  /**
   * The language model behind POST /generate. Only the prompt, the canvas contract and the tenant's
   * custom field keys are sent to it.
   *
   * @param provider none (the offline parser only), openai (any OpenAI-compatible chat-completions
   *     endpoint: OpenAI, vLLM, Ollama, LM Studio, ...) or anthropic (the Messages API)
   * @param baseUrl the provider's API address; empty for the provider's own
   * @param model the model name, required with a provider
   * @param apiKey the provider's key; set it in the environment (CRM_GENERATE_LLM_API_KEY), never
   *     in a file under version control
   * @param timeout how long one call to the model may take before the offline parser answers (a
   *     generation makes at most two: the draft and one repair)
   * @param maxTokens the most tokens an answer may have
   * @param offForTenants tenants whose prompts never leave the service (the offline parser answers)
   */
  public record Llm(
      @DefaultValue("none") @Pattern(regexp = "none|openai|anthropic") String provider,
      String baseUrl,
      String model,
      String apiKey,
      @DefaultValue("30s") @NotNull Duration timeout,
      @DefaultValue("4096") @Min(256) int maxTokens,
      @DefaultValue List<UUID> offForTenants) {

    public boolean enabled() {
      return !"none".equals(provider);
    }
  }

  /**
   * Automation runs.
   *
   * @param localActivities run the recorder, http_request, crm_update and the email node's reads
   *     and booking as local activities in the worker's own process (embedded defaults); off in the
   *     distributed profile
   * @param sharedByApiServers several api-servers share one database: a start and a cancel check
   *     each other through it
   * @param reconcileInterval how often accepted runs whose workflow never started are started (and
   *     webhook deliveries re-sent)
   * @param reconcileGraceSeconds how long a run may go unheard of before the reconciler probes it
   * @param control the pace at which a flow's pause, archive or resume reaches its runs in progress
   * @param move the pace at which a move reaches the waiting runs it moves to another version
   */
  public record Runs(
      @DefaultValue("true") boolean localActivities,
      @DefaultValue("false") boolean sharedByApiServers,
      @DefaultValue("5s") @NotNull Duration reconcileInterval,
      @DefaultValue("5") @Min(0) int reconcileGraceSeconds,
      @DefaultValue @Valid Control control,
      @DefaultValue @Valid Move move) {

    /**
     * The pace of a run control job (hold, release or end of a flow's runs in progress).
     *
     * @param pageSize runs asked per page
     * @param pause the pause after each page (a job asks at most page-size runs per pause)
     */
    public record Control(
        @DefaultValue("100") @Min(1) @Max(1000) int pageSize,
        @DefaultValue("100ms") @NotNull Duration pause) {}

    /**
     * The pace of a move of waiting runs to another version of their flow. Each tick takes one page
     * of the move that waited longest for its turn, so the moves of several tenants take turns, and
     * a move never takes more than a page of runs per pause from the runs' own work.
     *
     * @param pageSize runs asked per page
     * @param pause the pause after each page
     * @param parallel runs of a page asked at once
     */
    public record Move(
        @DefaultValue("50") @Min(1) @Max(1000) int pageSize,
        @DefaultValue("100ms") @NotNull Duration pause,
        @DefaultValue("8") @Min(1) @Max(64) int parallel) {}
  }

  /** The public trigger. */
  public record Trigger(
      @DefaultValue @Valid Admission admission, @DefaultValue @Valid Quota quota) {

    /**
     * Backpressure, fair between tenants: calls are let in at about the rate runs end, and refused
     * (503) beyond what keeps the runs already accepted on time.
     *
     * @param maxDueRuns runs due at once, shared fairly between tenants, before calls are refused
     *     (0: no limit)
     * @param maxWait the longest a call sleeps until its slot of the pace; a call whose slot is
     *     further off is refused (at most 1 s: a request thread is never parked for seconds)
     * @param paced let calls in no faster than runs have been ending
     * @param maxDueTime how long a run let in should stay due at most: while runs stay due longer,
     *     fewer of them may be due at once (down to an eighth of max-due-runs), and more again as
     *     they come back under it (0: max-due-runs alone)
     */
    public record Admission(
        @DefaultValue("32") @Min(0) int maxDueRuns,
        @DefaultValue("100ms") @NotNull Duration maxWait,
        @DefaultValue("true") boolean paced,
        @DefaultValue("0s") @NotNull Duration maxDueTime) {

      @AssertTrue(message = "max-due-time must not be negative")
      public boolean isMaxDueTimeNotNegative() {
        return maxDueTime == null || !maxDueTime.isNegative();
      }

      @AssertTrue(message = "max-wait must be between 0 and 1s")
      public boolean isMaxWaitShort() {
        return maxWait == null
            || (!maxWait.isNegative() && maxWait.compareTo(Duration.ofSeconds(1)) <= 0);
      }
    }

    /**
     * Each tenant's quota of public trigger calls: a token bucket of {@code requests} calls,
     * refilled evenly over {@code window} (RateLimit-Policy {@code q} and {@code w}). A tenant may
     * carry its own (admin API). Beyond it: 429 with Retry-After.
     *
     * @param enabled whether trigger calls are limited per tenant at all
     * @param requests the calls a tenant may make per window (and at once, after a pause)
     * @param window the window, in whole seconds
     * @param refusalDelay a 429 is sent after the time until a call fits, at most this long,
     *     without holding a request thread (0: at once); up to 10s
     */
    public record Quota(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("100") @Min(1) @Max(1_000_000) int requests,
        @DefaultValue("10s") @NotNull Duration window,
        @DefaultValue("1s") @NotNull Duration refusalDelay) {

      @AssertTrue(message = "refusal-delay must be between 0 and 10s")
      public boolean isRefusalDelayShort() {
        return refusalDelay == null
            || (!refusalDelay.isNegative() && refusalDelay.compareTo(Duration.ofSeconds(10)) <= 0);
      }

      @AssertTrue(message = "window must be whole seconds, from 1s to 1h")
      public boolean isWindowWholeSeconds() {
        return window == null
            || (window.toNanos() % 1_000_000_000L == 0
                && window.getSeconds() >= 1
                && window.getSeconds() <= 3600);
      }
    }
  }

  /**
   * schedule_trigger nodes.
   *
   * @param checkInterval how often active schedules are compared with their workflows
   * @param reconcileInterval how often schedule workflows that failed to start are started again
   */
  public record Schedules(
      @DefaultValue("60s") @NotNull Duration checkInterval,
      @DefaultValue("5s") @NotNull Duration reconcileInterval) {}

  /**
   * The outbox of CRM events.
   *
   * @param dispatchInterval how often the outbox is read
   * @param setAsideAfter how long an event that keeps failing is retried before it is set aside
   * @param maxChainDepth the most runs one after the other that events of their writes may chain:
   *     an event produced by the last of them starts no automation (1: events of a run's writes
   *     start none)
   * @param maxRunsPerCause the most runs that events of runs' writes (and calls of the service's
   *     own public trigger by its runs) may start for one root (an API client's event, say, or a
   *     run no event started), over all the chains that grow from it: past it, such an event starts
   *     no automation
   * @param maxRunsPerRecordPerMinute the most runs an automation's crm_event_trigger starts for one
   *     record (an event's contact, opportunity, conversation) in one minute of the clock, causes
   *     or not: past it, its starts for the record are refused until the minute ends (0: no limit)
   * @param redeliverInterval how often the events routed to waiting runs (wait_until) that did not
   *     reach their workflow right after their dispatch are signalled again
   */
  public record Events(
      @DefaultValue("250ms") @NotNull Duration dispatchInterval,
      @DefaultValue("1m") @NotNull Duration setAsideAfter,
      @DefaultValue("5") @Min(1) @Max(100) int maxChainDepth,
      @DefaultValue("50") @Min(1) @Max(100000) int maxRunsPerCause,
      @DefaultValue("60") @Min(0) @Max(100000) int maxRunsPerRecordPerMinute,
      @DefaultValue("1s") @NotNull Duration redeliverInterval) {}

  /**
   * Outbound webhooks.
   *
   * @param retrySchedule the wait before each attempt of a delivery (the first is usually 0s)
   */
  public record Webhooks(
      @DefaultValue({"0s", "5s", "5m", "30m", "2h", "5h", "10h", "10h"}) @NotEmpty
          List<Duration> retrySchedule) {}

  /**
   * The sweep that ends run records whose workflow closed without telling us.
   *
   * @param interval how often it looks
   * @param batch records looked at per look while it looks for workflows Temporal lost (after the
   *     namespace was made again)
   * @param olderThan only records running at least this long are checked
   * @param lookBack how far back a process's first look goes for workflows closed from outside
   *     (then each look goes back to the one before it)
   */
  public record CloseCheck(
      @DefaultValue("30s") @NotNull Duration interval,
      @DefaultValue("100") @Min(1) int batch,
      @DefaultValue("1m") @NotNull Duration olderThan,
      @DefaultValue("3d") @NotNull Duration lookBack) {}

  /**
   * Removal of old records.
   *
   * @param keep ended runs, deliveries and audit rows older than this are deleted
   * @param initialDelay the first removal after the start
   * @param interval how often removal runs
   * @param hourlyCountsKeep a stats {@code since} further back than this counts from the start of
   *     its UTC day; a flow's per-hour counts of node log entries a day older than this are deleted
   *     (its per-day and all-time counts stay) (0: hours are kept)
   */
  public record Retention(
      @DefaultValue("30d") @NotNull Duration keep,
      @DefaultValue("1m") @NotNull Duration initialDelay,
      @DefaultValue("1h") @NotNull Duration interval,
      @DefaultValue("31d") @NotNull Duration hourlyCountsKeep) {

    /** Whether per-hour counts expire at all (a keep of 0 or less keeps them). */
    public boolean hourlyCountsExpire() {
      return !hourlyCountsKeep.isZero() && !hourlyCountsKeep.isNegative();
    }
  }

  /**
   * The security events kept of refused calls (401, 403). Each source (an API key where the call
   * named a known one, else the caller's address) gets a few rows a minute; its further refusals in
   * that minute add to the count ({@code repeats}) of its last row, so a flood of bad keys adds
   * counts, not rows.
   *
   * @param keep rows older than this are deleted by the retention pass (0: kept forever)
   * @param rowsPerSourcePerMinute rows one source may add in a minute
   * @param rowsPerMinute rows all sources together may add in a minute (per api-server)
   */
  public record SecurityEvents(
      @DefaultValue("90d") @NotNull Duration keep,
      @DefaultValue("20") @Min(1) int rowsPerSourcePerMinute,
      @DefaultValue("600") @Min(1) int rowsPerMinute) {}

  /**
   * @param keep how long an Idempotency-Key's answer is kept
   */
  public record Idempotency(@DefaultValue("24h") @NotNull Duration keep) {}

  /**
   * @param slackBaseUrl the Slack Web API base URL of chat integrations that set none
   */
  public record Chat(@DefaultValue("https://slack.com/api") @NotNull String slackBaseUrl) {}

  public boolean adminApiEnabled() {
    return adminToken != null && !adminToken.isBlank();
  }
}
