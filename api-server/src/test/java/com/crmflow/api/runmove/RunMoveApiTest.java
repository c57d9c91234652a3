package com.crmflow.api.runmove;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.GreenMails;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.ReleaseGate;
import com.crmflow.api.support.RunHistory;
import com.icegreen.greenmail.util.GreenMail;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Waiting runs move to another version of their flow, on the real service (PostgreSQL, Temporal,
 * SMTP through GreenMail): the dry run says where they wait and which would move, changing nothing;
 * the move moves each once at its safe point (waiting in a delay, or held before its next node by
 * its flow's pause, where it holds on until the flow is active again), it sends the new version's
 * email exactly once, its record names the versions it ran, and bad requests are refused with
 * problem details.
 */
// a configuration of its own (an SMTP server): its service stops after the class
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RunMoveApiTest extends ApiTest {

  @Autowired private RunMoveRepository moves;

  private static final GreenMail SMTP = GreenMails.startedOnAFreePort();

  @DynamicPropertySource
  static void smtp(DynamicPropertyRegistry registry) {
    registry.add("spring.mail.host", () -> "127.0.0.1");
    registry.add("spring.mail.port", () -> SMTP.getSmtp().getPort());
    registry.add("crm.mail.from", () -> "flows@crm.example");
  }

  @AfterAll
  static void stop() {
    SMTP.stop();
  }

  @Autowired private JdbcClient jdbc;
  @Autowired private WorkflowClient temporal;

  private TenantClient tenant;
  private String contactId;
  private String email;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    email = uniqueId("ada") + "@example.com";
    contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", email, "first_name", "Ada"))
            .text("/contact/id");
  }

  /** webhook → wait (the delay given) → mail with that subject. */
  private static Map<String, Object> waitThenEmail(
      String hook, String waitId, Map<String, Object> delay, String subject) {
    return chain(
        hook,
        node(waitId, "delay", delay),
        node("mail", "email", Map.of("subject", subject, "body", "Hi {{contact.first_name}}")));
  }

  /** webhook → a gate the test opens ({@link ReleaseGate}) → mail with that subject. */
  private static Map<String, Object> gateThenEmail(String hook, String subject) {
    return ReleaseGate.chain(
        hook,
        node("mail", "email", Map.of("subject", subject, "body", "Hi {{contact.first_name}}")));
  }

  private ApiResponse save(String flow, Map<String, Object> canvas) {
    ApiResponse saved = tenant.api().put("/api/sequences/" + flow + "/canvas", canvas);
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    return saved;
  }

  private String fireAndAwaitDelay(String hook, String waitId) {
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
    await().atMost(Patience.EVENTUALLY).until(() -> entry(runId, waitId).isPresent());
    return runId;
  }

  private JsonNode run(String runId) {
    return tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
  }

  private Optional<JsonNode> entry(String runId, String nodeId) {
    return StreamSupport.stream(run(runId).get("node_log").spliterator(), false)
        .filter(e -> nodeId.equals(e.get("nodeId").asString()))
        .findFirst();
  }

  private ApiResponse move(ApiClient api, String flow, Map<String, Object> body) {
    return api.post("/api/sequences/" + flow + "/runs/move", body);
  }

  private JsonNode awaitMoveDone(String flow, String moveId) {
    JsonNode[] move = new JsonNode[1];
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> {
              move[0] =
                  tenant.api().get("/api/sequences/" + flow + "/runs/moves/" + moveId).at("/move");
              return move[0].get("status").asString().equals("completed");
            });
    return move[0];
  }

  private List<MimeMessage> mailsTo(String address) throws Exception {
    List<MimeMessage> mails = new ArrayList<>();
    for (MimeMessage message : SMTP.getReceivedMessages()) {
      if (message.getAllRecipients()[0].toString().equals(address)) {
        mails.add(message);
      }
    }
    return mails;
  }

  private long moveJobs(String flow) {
    return jdbc.sql("select count(*) from run_move_job where sequence_id = cast(:id as uuid)")
        .param("id", flow)
        .query(Long.class)
        .single();
  }

  /** The flow's runs that wait (or hold) at a node, in the counts per node. */
  private long runningInTheCounts(String flow) {
    return jdbc.sql(
            """
            select coalesce(sum(n), 0) from node_count
            where sequence_id = cast(:id as uuid) and status = 'running'
            """)
        .param("id", flow)
        .query(Long.class)
        .single();
  }

  @Test
  void aWaitingRunMovesToTheFixedVersionAndSendsItsEmailOnceAtItsRecomputedDeadline()
      throws Exception {
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(), waitThenEmail(hook, "wait", Map.of("delayMinutes", 30), "Typo v1"));
    String runId = fireAndAwaitDelay(hook, "wait");
    Instant delayStarted =
        Instant.parse(entry(runId, "wait").orElseThrow().get("startedAt").asString());
    save(flow, waitThenEmail(hook, "wait", Map.of("delayMinutes", 0.1), "Fixed v2"));

    ApiResponse dry = move(tenant.api(), flow, Map.of("dry_run", true));

    assertThat(dry.status()).as(dry.toString()).isEqualTo(200);
    assertThat(dry.at("/to_version").asInt()).isEqualTo(2);
    assertThat(dry.at("/from_versions/0").asInt()).isEqualTo(1);
    assertThat(dry.at("/would_move").asLong()).isEqualTo(1);
    assertThat(dry.at("/cannot_move").asLong()).isZero();
    JsonNode atWait = dry.at("/versions/0/nodes/0");
    assertThat(atWait.get("node_id").asString()).isEqualTo("wait");
    assertThat(atWait.get("runs").asLong()).isEqualTo(1);
    assertThat(atWait.get("to_node").asString()).isEqualTo("wait");
    assertThat(moveJobs(flow)).as("a dry run stores nothing").isZero();
    assertThat(run(runId).get("canvas_version").asInt()).isEqualTo(1);

    Map<String, Object> ask = Map.of("recompute_delays", true);
    ApiResponse started = move(tenant.api(), flow, ask);
    ApiResponse again = move(tenant.api(), flow, ask);

    assertThat(started.status()).as(started.toString()).isEqualTo(202);
    String moveId = started.text("/move/move_id");
    assertThat(again.text("/move/move_id"))
        .as("the same request starts one move")
        .isEqualTo(moveId);
    JsonNode done = awaitMoveDone(flow, moveId);
    assertThat(done.get("moved").asLong()).isEqualTo(1);
    assertThat(done.get("skipped").asLong()).isZero();
    assertThat(done.get("pending").asLong()).isZero();
    assertThat(moveJobs(flow)).isEqualTo(1);

    JsonNode ended = awaitRun(tenant.api(), runId);
    assertThat(ended.get("status").asString()).as(ended.toString()).isEqualTo("completed");
    assertThat(ended.get("canvas_version").asInt()).isEqualTo(2);
    assertThat(ended.get("moved_from_versions").toString()).isEqualTo("[1]");
    await().atMost(Patience.EVENTUALLY).until(() -> mailsTo(email).size() == 1);
    assertThat(mailsTo(email).get(0).getSubject()).isEqualTo("Fixed v2");
    JsonNode moved = entry(runId, "move:v2").orElseThrow();
    assertThat(moved.at("/output/moved_from_version").asInt()).isEqualTo(1);
    assertThat(moved.at("/output/key_id").asString()).isNotBlank();
    assertThat(moved.at("/output/move_id").asString()).isEqualTo(moveId);
    JsonNode delay = entry(runId, "wait").orElseThrow();
    assertThat(delay.get("status").asString()).isEqualTo("completed");
    // woke at its start plus version 2's 6 seconds, not version 1's 30 minutes
    assertThat(Duration.between(delayStarted, Instant.parse(delay.get("completedAt").asString())))
        .isLessThan(Duration.ofMinutes(5));
    List<String> nodes = new ArrayList<>();
    ended.get("node_log").forEach(e -> nodes.add(e.get("nodeId").asString()));
    assertThat(nodes).containsExactly(hook, "wait", "move:v2", "mail");
    assertThat(tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).at("/total").asInt())
        .isEqualTo(1);
    // nothing waits at version 1's delay now, in the counts per node
    assertThat(runningInTheCounts(flow)).isZero();
  }

  /** webhook → two branches at once, each: wait (the minutes given) → mail with its subject. */
  private static Map<String, Object> twoBranches(String hook, double minutes, String version) {
    return canvas(
        List.of(
            node(hook, "webhook_trigger", Map.of()),
            node("wait-a", "delay", Map.of("delayMinutes", minutes)),
            node("mail-a", "email", Map.of("subject", "A " + version, "body", "a")),
            node("wait-b", "delay", Map.of("delayMinutes", minutes)),
            node("mail-b", "email", Map.of("subject", "B " + version, "body", "b"))),
        List.of(
            edge("e1", hook, "wait-a"),
            edge("e2", "wait-a", "mail-a"),
            edge("e3", hook, "wait-b"),
            edge("e4", "wait-b", "mail-b")));
  }

  /**
   * A run waiting in two parallel branches at once moves as one: the dry run counts it at each
   * waiting node, one entry says it moved both, and each branch wakes in version 2 and sends
   * version 2's email once.
   */
  @Test
  void aRunWaitingInTwoBranchesMovesBothAndEachSendsVersion2sEmailOnce() throws Exception {
    String hook = uniqueId("hook");
    String flow = activeAutomation(tenant.api(), twoBranches(hook, 30, "v1"));
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> entry(runId, "wait-a").isPresent() && entry(runId, "wait-b").isPresent());
    save(flow, twoBranches(hook, 0.1, "v2"));

    JsonNode dry = move(tenant.api(), flow, Map.of("dry_run", true)).json();
    assertThat(dry.at("/cannot_move").asLong()).as(dry.toString()).isZero();
    assertThat(dry.at("/versions/0/nodes").valueStream().map(n -> n.get("node_id").asString()))
        .containsExactlyInAnyOrder("wait-a", "wait-b");
    assertThat(dry.at("/versions/0/nodes").valueStream().map(n -> n.get("runs").asLong()))
        .containsOnly(1L);

    ApiResponse started = move(tenant.api(), flow, Map.of("recompute_delays", true));

    JsonNode done = awaitMoveDone(flow, started.text("/move/move_id"));
    assertThat(done.get("moved").asLong()).as(done.toString()).isEqualTo(1);
    JsonNode ended = awaitRun(tenant.api(), runId);
    assertThat(ended.get("status").asString()).as(ended.toString()).isEqualTo("completed");
    assertThat(ended.get("canvas_version").asInt()).isEqualTo(2);
    JsonNode moved = entry(runId, "move:v2").orElseThrow();
    assertThat(moved.at("/output/nodes").valueStream().map(n -> n.get("from_node").asString()))
        .containsExactlyInAnyOrder("wait-a", "wait-b");
    assertThat(ended.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactlyInAnyOrder(hook, "wait-a", "wait-b", "move:v2", "mail-a", "mail-b");
    await().atMost(Patience.EVENTUALLY).until(() -> mailsTo(email).size() == 2);
    assertThat(mailsTo(email).stream().map(this::subject))
        .containsExactlyInAnyOrder("A v2", "B v2");
    assertThat(tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).at("/total").asInt())
        .isEqualTo(2);
  }

  private String subject(MimeMessage message) {
    try {
      return message.getSubject();
    } catch (jakarta.mail.MessagingException unreadable) {
      throw new IllegalStateException(unreadable);
    }
  }

  /**
   * The delay is long, so that no machine is slow enough for it to end before the move. The move's
   * entry says when the moved delay wakes, and Temporal's history shows the timer the run set after
   * the move for that moment (RunMoveTest, in the engine's tests, wakes a moved run at it on the
   * test server's clock).
   */
  @Test
  void aMovedDelayKeepsItsDeadlineAndARenamedNodeMovesOnlyWhenMapped() throws Exception {
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(), waitThenEmail(hook, "wait", Map.of("delayMinutes", 30), "Old"));
    String runId = fireAndAwaitDelay(hook, "wait");
    String until = entry(runId, "wait").orElseThrow().at("/output/until").asString();
    save(flow, waitThenEmail(hook, "pause", Map.of("delayMinutes", 600), "New"));

    JsonNode unmapped = move(tenant.api(), flow, Map.of("dry_run", true)).json();
    assertThat(unmapped.at("/cannot_move").asLong()).isEqualTo(1);
    assertThat(unmapped.at("/versions/0/nodes/0/reason").asString())
        .isEqualTo("node wait is not in version 2 and is not mapped");

    ApiResponse started = move(tenant.api(), flow, Map.of("mapping", Map.of("wait", "pause")));

    assertThat(started.status()).as(started.toString()).isEqualTo(202);
    JsonNode done = awaitMoveDone(flow, started.text("/move/move_id"));
    assertThat(done.get("moved").asLong()).isEqualTo(1);
    // version 2's delay is 10 hours; the run keeps version 1's 30 minutes
    JsonNode moved = run(runId);
    assertThat(moved.get("canvas_version").asInt()).as(moved.toString()).isEqualTo(2);
    JsonNode movedEntry = entry(runId, "move:v2").orElseThrow();
    assertThat(movedEntry.at("/output/nodes/0/to_node").asString()).isEqualTo("pause");
    assertThat(movedEntry.at("/output/nodes/0/until").asString())
        .as(movedEntry.toString())
        .isEqualTo(until);
    Instant movedAt = Instant.parse(movedEntry.get("startedAt").asString());
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> timersSetAfter(runId, movedAt), fires -> !fires.isEmpty());
    assertThat(timersSetAfter(runId, movedAt))
        .as("the timer set after the move fires at version 1's deadline")
        .allSatisfy(
            fires ->
                assertThat(fires).isCloseTo(Instant.parse(until), within(1, ChronoUnit.SECONDS)));
    assertThat(entry(runId, "pause").orElseThrow().get("status").asString()).isEqualTo("running");
    assertThat(entry(runId, "wait")).as("the entry is the mapped node's now").isEmpty();
  }

  /** When each timer the run's workflow started after {@code after} fires. */
  private List<Instant> timersSetAfter(String runId, Instant after) {
    List<Instant> fires = new ArrayList<>();
    for (HistoryEvent event : temporal.fetchHistory("run-" + runId).getEvents()) {
      if (event.hasTimerStartedEventAttributes()) {
        Instant set = RunHistory.timeOf(event);
        com.google.protobuf.Duration timeout =
            event.getTimerStartedEventAttributes().getStartToFireTimeout();
        if (set.isAfter(after)) {
          fires.add(set.plusSeconds(timeout.getSeconds()).plusNanos(timeout.getNanos()));
        }
      }
    }
    return fires;
  }

  @Test
  void aRunThatCannotMoveIsSkippedWithTheReasonAndGoesOnInItsVersion() throws Exception {
    String hook = uniqueId("hook");
    String flow = activeAutomation(tenant.api(), gateThenEmail(hook, "Stays v1"));
    String runId = fireAndAwaitDelay(hook, "wait");
    ReleaseGate.awaitWaiting(jdbc, runId);
    save(flow, waitThenEmail(hook, "pause", Map.of("delayMinutes", 0.2), "v2"));

    ApiResponse started = move(tenant.api(), flow, Map.of());

    JsonNode done = awaitMoveDone(flow, started.text("/move/move_id"));
    assertThat(done.get("moved").asLong()).isZero();
    assertThat(done.get("skipped").asLong()).isEqualTo(1);
    assertThat(done.at("/skipped_reasons").toString())
        .isEqualTo("{\"node wait is not in version 2 and is not mapped\":1}");
    ReleaseGate.open(tenant.api(), contactId);
    JsonNode ended = awaitRun(tenant.api(), runId);
    assertThat(ended.get("status").asString()).isEqualTo("completed");
    assertThat(ended.get("canvas_version").asInt()).isEqualTo(1);
    await().atMost(Patience.EVENTUALLY).until(() -> mailsTo(email).size() == 1);
    assertThat(mailsTo(email).get(0).getSubject()).isEqualTo("Stays v1");
  }

  private ApiResponse setStatus(String flow, Map<String, Object> body) {
    ApiResponse answer = tenant.api().patch("/api/v1/sequences/" + flow, body);
    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    return answer;
  }

  /**
   * Pauses the flow holding its runs, then opens the gate the run waits at once the hold has been
   * handed to it; returns once the run holds before {@code nodeId}.
   */
  private void pauseOpenAndAwaitHeldBefore(String flow, String runId, String nodeId) {
    ReleaseGate.awaitWaiting(jdbc, runId);
    setStatus(flow, Map.of("status", "paused", "in_flight", "hold"));
    ReleaseGate.openAfterAsks(jdbc, tenant.api(), flow, contactId);
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                entry(runId, nodeId)
                    .filter(e -> e.get("status").asString().equals("running"))
                    .filter(e -> e.at("/output/held").asString().equals("flow paused"))
                    .isPresent());
  }

  private static List<String> nodeIds(JsonNode run) {
    List<String> ids = new ArrayList<>();
    run.get("node_log").forEach(e -> ids.add(e.get("nodeId").asString()));
    return ids;
  }

  @Test
  void aHeldRunMovesHoldsOnAndSendsVersion2sEmailOnceWhenItsFlowIsActiveAgain() throws Exception {
    String hook = uniqueId("hook");
    String flow = activeAutomation(tenant.api(), gateThenEmail(hook, "Typo v1"));
    String runId = fireAndAwaitDelay(hook, "wait");
    pauseOpenAndAwaitHeldBefore(flow, runId, "mail");
    String heldAt = entry(runId, "mail").orElseThrow().get("startedAt").asString();
    save(flow, gateThenEmail(hook, "Fixed v2"));

    JsonNode dry = move(tenant.api(), flow, Map.of("dry_run", true)).json();

    assertThat(dry.at("/would_move").asLong()).as(dry.toString()).isEqualTo(1);
    assertThat(dry.at("/cannot_move").asLong()).isZero();
    JsonNode atMail = dry.at("/versions/0/nodes/0");
    assertThat(atMail.get("node_id").asString()).isEqualTo("mail");
    assertThat(atMail.get("runs").asLong()).isEqualTo(1);
    assertThat(atMail.get("to_node").asString()).isEqualTo("mail");
    assertThat(atMail.get("reason").isNull()).as(atMail.toString()).isTrue();

    ApiResponse started = move(tenant.api(), flow, Map.of());

    JsonNode done = awaitMoveDone(flow, started.text("/move/move_id"));
    assertThat(done.get("moved").asLong()).as(done.toString()).isEqualTo(1);
    assertThat(done.get("skipped").asLong()).isZero();
    // moved, it holds on before version 2's email until the flow is active again
    JsonNode moved = run(runId);
    assertThat(moved.get("status").asString()).isEqualTo("running");
    assertThat(moved.get("canvas_version").asInt()).isEqualTo(2);
    assertThat(moved.get("moved_from_versions").toString()).isEqualTo("[1]");
    JsonNode held = entry(runId, "mail").orElseThrow();
    assertThat(held.get("startedAt").asString()).as("the held entry").isEqualTo(heldAt);
    assertThat(held.get("status").asString()).isEqualTo("running");
    assertThat(held.at("/output/held").asString()).isEqualTo("flow paused");
    JsonNode movedEntry = entry(runId, "move:v2").orElseThrow();
    assertThat(movedEntry.at("/output/moved_from_version").asInt()).isEqualTo(1);
    assertThat(movedEntry.at("/output/nodes/0/from_node").asString()).isEqualTo("mail");
    assertThat(movedEntry.at("/output/nodes/0/to_node").asString()).isEqualTo("mail");
    assertThat(mailsTo(email)).isEmpty();

    setStatus(flow, Map.of("status", "active"));

    JsonNode ended = awaitRun(tenant.api(), runId);
    assertThat(ended.get("status").asString()).as(ended.toString()).isEqualTo("completed");
    assertThat(ended.get("canvas_version").asInt()).isEqualTo(2);
    await().atMost(Patience.EVENTUALLY).until(() -> mailsTo(email).size() == 1);
    assertThat(mailsTo(email).get(0).getSubject()).isEqualTo("Fixed v2");
    assertThat(tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).at("/total").asInt())
        .isEqualTo(1);
    assertThat(nodeIds(ended)).containsExactly(hook, "wait", "mail", "move:v2");
    JsonNode sent = entry(runId, "mail").orElseThrow();
    assertThat(sent.get("startedAt").asString()).as("the held entry").isEqualTo(heldAt);
    assertThat(sent.get("status").asString()).isEqualTo("completed");
    assertThat(runningInTheCounts(flow)).as("nothing holds in the counts per node").isZero();
  }

  @Test
  void aHeldRunWhoseNodeIsGoneIsSkippedUnlessMappedAndMappedCallsVersion2sNodeOnce()
      throws Exception {
    try (LocalHttpServer peer = new LocalHttpServer()) {
      String hook = uniqueId("hook");
      String flow = activeAutomation(tenant.api(), gateThenEmail(hook, "Old"));
      String runId = fireAndAwaitDelay(hook, "wait");
      pauseOpenAndAwaitHeldBefore(flow, runId, "mail");
      String heldAt = entry(runId, "mail").orElseThrow().get("startedAt").asString();
      // version 2 calls a URL instead of the email
      save(
          flow,
          ReleaseGate.chain(
              hook,
              node("ping", "http_request", Map.of("method", "POST", "url", peer.url("/v2")))));
      String gone = "node mail is not in version 2 and is not mapped";

      JsonNode unmapped = move(tenant.api(), flow, Map.of("dry_run", true)).json();

      assertThat(unmapped.at("/would_move").asLong()).as(unmapped.toString()).isZero();
      assertThat(unmapped.at("/cannot_move").asLong()).isEqualTo(1);
      assertThat(unmapped.at("/versions/0/nodes/0/reason").asString()).isEqualTo(gone);
      JsonNode skipped =
          awaitMoveDone(flow, move(tenant.api(), flow, Map.of()).text("/move/move_id"));
      assertThat(skipped.get("moved").asLong()).isZero();
      assertThat(skipped.at("/skipped_reasons").toString()).isEqualTo("{\"" + gone + "\":1}");
      assertThat(run(runId).get("canvas_version").asInt()).isEqualTo(1);

      Map<String, Object> mapped = Map.of("mapping", Map.of("mail", "ping"));
      JsonNode dry =
          move(tenant.api(), flow, Map.of("dry_run", true, "mapping", Map.of("mail", "ping")))
              .json();
      assertThat(dry.at("/would_move").asLong()).as(dry.toString()).isEqualTo(1);
      assertThat(dry.at("/versions/0/nodes/0/to_node").asString()).isEqualTo("ping");
      JsonNode done = awaitMoveDone(flow, move(tenant.api(), flow, mapped).text("/move/move_id"));
      assertThat(done.get("moved").asLong()).as(done.toString()).isEqualTo(1);

      // the held entry is version 2's node's now, of its type, and still holds
      JsonNode held = entry(runId, "ping").orElseThrow();
      assertThat(held.get("startedAt").asString()).as("the held entry").isEqualTo(heldAt);
      assertThat(held.get("nodeType").asString()).isEqualTo("http_request");
      assertThat(held.get("status").asString()).isEqualTo("running");
      assertThat(entry(runId, "mail")).isEmpty();
      assertThat(peer.received()).isEmpty();

      setStatus(flow, Map.of("status", "active"));

      JsonNode ended = awaitRun(tenant.api(), runId);
      assertThat(ended.get("status").asString()).as(ended.toString()).isEqualTo("completed");
      assertThat(ended.get("moved_from_versions").toString()).isEqualTo("[1]");
      assertThat(peer.received("/v2")).hasSize(1);
      assertThat(nodeIds(ended)).containsExactly(hook, "wait", "ping", "move:v2");
      assertThat(entry(runId, "ping").orElseThrow().get("status").asString())
          .isEqualTo("completed");
      assertThat(mailsTo(email)).isEmpty();
    }
  }

  @Test
  void badRequestsAreRefusedWithProblemDetailsAndChangeNothing() {
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(tenant.api(), waitThenEmail(hook, "wait", Map.of("delayMinutes", 5), "A"));
    save(flow, waitThenEmail(hook, "wait", Map.of("delayMinutes", 5), "B"));

    assertRefused(move(tenant.api(), flow, Map.of("to_version", 9)), 422, "to_version");
    assertRefused(move(tenant.api(), flow, Map.of("to_version", 1)), 422, "to_version");
    assertRefused(
        move(tenant.api(), flow, Map.of("to_version", 2, "from_versions", List.of(2))),
        422,
        "from_versions");
    assertRefused(
        move(tenant.api(), flow, Map.of("mapping", Map.of("wait", "nowhere"))),
        422,
        "mapping.wait");
    assertRefused(
        move(tenant.api(), flow, Map.of("mapping", Map.of("w".repeat(6_000), "wait"))),
        400,
        "mapping");
    ApiResponse unknownFlow =
        move(tenant.api(), "00000000-0000-4000-8000-000000000001", Map.of("dry_run", true));
    assertThat(unknownFlow.status()).as(unknownFlow.toString()).isEqualTo(404);
    ApiResponse unknownMove =
        tenant
            .api()
            .get("/api/sequences/" + flow + "/runs/moves/00000000-0000-4000-8000-000000000001");
    assertThat(unknownMove.status()).isEqualTo(404);
    assertThat(moveJobs(flow)).isZero();
  }

  /**
   * A request longer than an index entry holds (a mapping of many old node ids) is stored and moves
   * the runs, and a second ask of the same request while its move is under way is one move.
   */
  @Test
  void aMoveWhoseRequestIsLongerThanAnIndexEntryHoldsIsStoredAndOnceWhileUnderWay()
      throws Exception {
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(), waitThenEmail(hook, "wait", Map.of("delayMinutes", 30), "A"));
    String runId = fireAndAwaitDelay(hook, "wait");
    save(flow, waitThenEmail(hook, "wait", Map.of("delayMinutes", 30), "B"));
    Map<String, Object> mapping = new java.util.TreeMap<>(Map.of("wait", "wait"));
    for (int n = 0; n < 80; n++) {
      mapping.put(java.util.UUID.randomUUID() + "-" + java.util.UUID.randomUUID(), "mail");
    }

    ApiResponse started = move(tenant.api(), flow, Map.of("mapping", mapping));

    assertThat(started.status()).as(started.toString()).isEqualTo(202);
    JsonNode done = awaitMoveDone(flow, started.text("/move/move_id"));
    assertThat(done.get("moved").asLong()).isEqualTo(1);
    assertThat(run(runId).get("canvas_version").asInt()).isEqualTo(2);
    String request =
        jdbc.sql("select request from run_move_job where sequence_id = cast(:id as uuid)")
            .param("id", flow)
            .query(String.class)
            .single();
    assertThat(request.length()).as("past a btree entry's 2.7 kB").isGreaterThan(6_000);

    Map<String, String> asked = new java.util.TreeMap<>();
    mapping.forEach((from, to) -> asked.put(from, (String) to));
    java.util.UUID tenantId = tenant.id();
    java.util.UUID sequenceId = java.util.UUID.fromString(flow);
    Optional<RunMoveJob> first =
        moves.insert(tenantId, sequenceId, 2, List.of(1), asked, false, null, request, 0);
    Optional<RunMoveJob> again =
        moves.insert(tenantId, sequenceId, 2, List.of(1), asked, false, null, request, 0);
    assertThat(first).isPresent();
    assertThat(again).as("the same request while its move is under way").isEmpty();
    assertThat(moves.running(tenantId, sequenceId, request).map(RunMoveJob::id))
        .contains(first.get().id());
  }

  private static void assertRefused(ApiResponse answer, int status, String field) {
    assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
    assertThat(answer.contentType()).contains("application/problem+json");
    assertThat(answer.rawBody()).contains("\"" + field + "\"");
  }
}
