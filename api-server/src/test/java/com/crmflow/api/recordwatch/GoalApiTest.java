package com.crmflow.api.recordwatch;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.RowLocks.awaitSomeoneWaitingFor;
import static com.crmflow.api.support.RowLocks.backendPid;
import static com.crmflow.api.support.RowLocks.update;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.automation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.workflow.action.RecordWatchActivities;
import com.crmflow.workflow.contract.RunRecorderActivities;
import com.crmflow.workflow.node.FlowGoal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A flow's goal end to end on the real Temporal server: a run whose contact comes to meet the goal
 * ends at once, completed, with its exit, even while it waits in a delay; a change that does not
 * meet it, or another tenant's change, leaves it waiting; a goal met while a node acts ends the run
 * before its next node. The goal is stored, checked and kept with the canvas version.
 */
class GoalApiTest extends ApiTest {

  private static final Map<String, Object> CUSTOMER =
      Map.of("field", "{{contact.lifecycle_stage}}", "operator", "equals", "value", "customer");

  @Autowired private DataSource dataSource;
  @Autowired private RunRecorderActivities recorder;
  @Autowired private RecordWatchActivities watchActivities;

  private TenantClient tenant;
  private LocalHttpServer peer;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    peer = new LocalHttpServer();
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  private static Map<String, Object> withGoal(Map<String, Object> canvas, Object goal) {
    Map<String, Object> body = new HashMap<>(canvas);
    body.put("goal", goal);
    return body;
  }

  /** webhook → wait a day ("wait") → email ("mail"), with the goal "the contact is a customer". */
  private Flow waitThenEmail(TenantClient owner) {
    return waitThenEmail(owner, CUSTOMER);
  }

  /** webhook → wait a day ("wait") → email ("mail"), with the goal (null: none). */
  private Flow waitThenEmail(TenantClient owner, Object goal) {
    String hook = uniqueId("hook");
    Map<String, Object> canvas =
        chain(
            hook,
            node("wait", "delay", Map.of("delayDays", 1)),
            node("mail", "email", Map.of("subject", "Still thinking?", "body", "Hi")));
    String flow = activeAutomation(owner.api(), goal == null ? canvas : withGoal(canvas, goal));
    return new Flow(flow, hook);
  }

  private record Flow(String id, String hook) {}

  private String contact(TenantClient owner, String email, String stage) {
    return owner
        .api()
        .post("/api/v1/contacts", Map.of("email", email, "lifecycle_stage", stage))
        .text("/contact/id");
  }

  private String fireAndAwaitDelay(TenantClient owner, Flow flow, String contactId) {
    String runId = fire(anonymous(), owner.id(), flow.hook(), Map.of("contact_id", contactId));
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> status(owner, runId, "wait"), "running"::equals);
    return runId;
  }

  private String status(TenantClient owner, String runId, String nodeId) {
    return entry(owner, runId, nodeId).map(e -> e.get("status").asString()).orElse("");
  }

  private Optional<JsonNode> entry(TenantClient owner, String runId, String nodeId) {
    JsonNode log = owner.api().get("/api/v1/automation-runs/" + runId).at("/run/node_log");
    return StreamSupport.stream(log.spliterator(), false)
        .filter(e -> nodeId.equals(e.get("nodeId").asString()))
        .findFirst();
  }

  private void stage(TenantClient owner, String contactId, String stage) {
    ApiResponse patched =
        owner.api().patch("/api/v1/contacts/" + contactId, Map.of("lifecycle_stage", stage));
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
  }

  private int emailsOf(TenantClient owner, String runId) {
    return owner.api().get("/api/v1/outbound-emails?run_id=" + runId).at("/total").asInt();
  }

  private int goalWatches(String runId) {
    return jdbc.sql("select count(*) from record_watch where run_id = :id and watcher = '(goal)'")
        .param("id", UUID.fromString(runId))
        .query(Integer.class)
        .single();
  }

  @Test
  void aRunWaitingInADelayEndsCompletedAtTheGoalWhenItsContactMeetsIt() {
    Flow flow = waitThenEmail(tenant);
    String ada = contact(tenant, "ada@example.com", "lead");
    String bob = contact(tenant, "bob@example.com", "lead");
    String runId = fireAndAwaitDelay(tenant, flow, ada);
    String other = fireAndAwaitDelay(tenant, flow, bob);
    assertThat(goalWatches(runId)).as("the run watches its contact for the goal").isEqualTo(1);

    // a change that leaves the goal unmet is not routed to the run, which waits on
    stage(tenant, ada, "opportunity");
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> RecordIndexRows.dispatched(jdbc, tenant.id(), "contact.updated") == 1);
    assertThat(RecordIndexRows.routedTo(jdbc, runId)).isZero();
    assertThat(status(tenant, runId, "wait")).isEqualTo("running");

    Instant until =
        Instant.parse(entry(tenant, runId, "wait").orElseThrow().at("/output/until").asString());
    Instant updated = Instant.now();
    stage(tenant, ada, "customer");

    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.get("error").isNull()).isTrue();
    assertThat(run.at("/exit/reason").asString()).isEqualTo("goal");
    assertThat(run.at("/exit/at_node").asString()).isEqualTo("wait");
    Instant completed = OffsetDateTime.parse(run.get("completed_at").asString()).toInstant();
    JsonNode delay = entry(tenant, runId, "wait").orElseThrow();
    assertThat(completed)
        .as("ended by the update, before its day-long delay would have")
        .isAfter(updated)
        .isBefore(until);
    assertThat(delay.get("status").asString()).isEqualTo("skipped");
    assertThat(delay.at("/output/skipped").asString()).isEqualTo("goal met");
    assertThat(entry(tenant, runId, "mail")).as("no node after the goal ran").isEmpty();
    assertThat(emailsOf(tenant, runId)).isZero();
    assertThat(goalWatches(runId)).as("its watch left the index with its end").isZero();
    assertThat(RecordIndexRows.routedTo(jdbc, runId)).isZero();

    // bob's run, of the same flow, still waits; the run list tells the goal's runs apart
    assertThat(status(tenant, other, "wait")).isEqualTo("running");
    assertThat(tenant.api().get("/api/v1/automation-runs/" + other).at("/run/exit").isNull())
        .isTrue();
    JsonNode met =
        tenant.api().get("/api/v1/automation-runs?exit=goal&sequence_id=" + flow.id()).json();
    assertThat(met.at("/total").asLong()).isEqualTo(1);
    assertThat(met.at("/runs/0/id").asString()).isEqualTo(runId);
    assertThat(met.at("/runs/0/exit/at_node").asString()).isEqualTo("wait");
    assertThat(tenant.api().get("/api/v1/automation-runs?sequence_id=" + flow.id()).at("/total"))
        .hasToString("2");

    JsonNode stats = tenant.api().get("/api/sequences/" + flow.id() + "/stats").json();
    assertThat(stats.at("/goals_met").asLong()).as(stats.toString()).isEqualTo(1);
    JsonNode wait =
        StreamSupport.stream(stats.at("/versions/0/nodes").spliterator(), false)
            .filter(n -> "wait".equals(n.get("node_id").asString()))
            .findFirst()
            .orElseThrow();
    assertThat(wait.get("goal_met").asLong()).isEqualTo(1);
    assertThat(wait.get("skipped").asLong()).as("a goal met is no skip").isZero();
    assertThat(wait.get("waiting").asLong()).as("bob's run").isEqualTo(1);
  }

  /**
   * A run that meets its goal while it waits in a wait_until ends completed at the goal, and takes
   * every watch it had out of the record index: the goal's and the wait_until's, which the cut node
   * did not leave itself.
   */
  @Test
  void aRunEndedAtItsGoalInAWaitUntilLeavesNoWatchBehind() {
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(),
            withGoal(
                canvas(
                    List.of(
                        node(hook, "webhook_trigger", Map.of()),
                        node(
                            "reply",
                            "wait_until",
                            Map.of("eventType", "conversation.message_received", "timeoutDays", 1)),
                        node("late", "email", Map.of("subject", "Still there?", "body", "Hi"))),
                    List.of(edge("e1", hook, "reply"), edge("e2", "reply", "late", "timeout"))),
                CUSTOMER));
    String ada = contact(tenant, "ada@example.com", "lead");
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> status(tenant, runId, "reply"), "running"::equals);
    await().atMost(Patience.EVENTUALLY).until(() -> watches(runId) == 2);

    stage(tenant, ada, "customer");

    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/exit/reason").asString()).isEqualTo("goal");
    assertThat(run.at("/exit/at_node").asString()).isEqualTo("reply");
    assertThat(watches(runId)).as("the goal's watch and the wait_until's").isZero();
    assertThat(entry(tenant, runId, "late")).as("no node after the goal ran").isEmpty();
    assertThat(flow).isNotBlank();
  }

  private int watches(String runId) {
    return jdbc.sql("select count(*) from record_watch where run_id = :id")
        .param("id", UUID.fromString(runId))
        .query(Integer.class)
        .single();
  }

  @Test
  void aGoalMetWhileANodeActsEndsTheRunBeforeItsNextNode() {
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(),
            withGoal(
                chain(
                    hook,
                    node("call", "http_request", Map.of("method", "POST", "url", peer.url("/c"))),
                    node("mail", "email", Map.of("subject", "Welcome", "body", "Hi"))),
                CUSTOMER));
    String ada = contact(tenant, "ada@example.com", "lead");
    peer.hold("/c");
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    await().atMost(Patience.EVENTUALLY).until(() -> peer.received("/c").size() == 1);

    stage(tenant, ada, "customer");
    peer.release("/c");

    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/exit/reason").asString()).isEqualTo("goal");
    assertThat(run.at("/exit/at_node").asString()).isEqualTo("mail");
    assertThat(status(tenant, runId, "call"))
        .as("the call in flight finished")
        .isEqualTo("completed");
    JsonNode mail = entry(tenant, runId, "mail").orElseThrow();
    assertThat(mail.get("status").asString()).isEqualTo("skipped");
    assertThat(mail.at("/output/skipped").asString()).isEqualTo("goal met");
    assertThat(emailsOf(tenant, runId)).isZero();

    // a contact that meets the goal already when its run starts: the run ends at its first node
    String bob = contact(tenant, "bob@example.com", "customer");
    String early = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", bob));
    JsonNode ended = awaitRun(tenant.api(), early);
    assertThat(ended.get("status").asString()).as(ended.toString()).isEqualTo("completed");
    assertThat(ended.at("/exit/at_node").asString()).isEqualTo("call");
    assertThat(peer.received("/c")).as("bob's run made no call").hasSize(1);
    assertThat(
            tenant.api().get("/api/v1/automation-runs?exit=goal&sequence_id=" + flow).at("/total"))
        .hasToString("2");
  }

  /**
   * The deliverer marks a run's goal deliveries one by one in the outbox's order, in one
   * transaction, while the run may end (its end deletes them). The run's end waits for the
   * deliverer rather than deadlocking with it: here it ends while the deliverer holds the first
   * delivery, and the deliverer then marks the second.
   */
  @Test
  void aRunEndingWhileItsGoalDeliveriesAreMarkedWaitsForTheDelivererAndDeadlocksNothing()
      throws Exception {
    UUID runId = waitingRun();
    // two deliveries already marked (the deliverer's rounds pass them by), the second of the
    // outbox stored first and with the lower event id
    delivery(runId, FlowGoal.WATCHER, SECOND, 2, true);
    delivery(runId, FlowGoal.WATCHER, FIRST, 1, true);

    endWhileTheDelivererMarks(
        runId,
        () -> {
          try (Connection ending = dataSource.getConnection()) {
            ending.setAutoCommit(false);
            update(ending, "update automation_run set status = 'cancelled' where id = ?", runId);
            ending.commit();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });

    assertThat(deliveries(runId))
        .as("the run's end deleted both deliveries once the deliverer was done")
        .isZero();
    assertThat(goalWatches(runId.toString())).isZero();
  }

  /**
   * A run that fails deletes its goal's deliveries and then its nodes' deliveries still on their
   * way, in one transaction, while the deliverer marks both kinds in the outbox's order: the run's
   * end takes them all in that order, so it waits for the deliverer's node delivery before it takes
   * the goal's.
   */
  @Test
  void aRunFailingWhileItsNodeAndGoalDeliveriesAreMarkedWaitsForTheDeliverer() throws Exception {
    UUID runId = waitingRun();
    // on their way: the run's end deletes the nodes' deliveries not yet delivered
    delivery(runId, "wait", FIRST, 1, false);
    delivery(runId, FlowGoal.WATCHER, SECOND, 2, false);

    endWhileTheDelivererMarks(
        runId, () -> recorder.finishRun(runId.toString(), "failed", "the database said no"));

    assertThat(deliveries(runId)).as("both deliveries deleted with the run's end").isZero();
    assertThat(goalWatches(runId.toString())).isZero();
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
        .isEqualTo("failed");
  }

  /**
   * A run of a flow without a goal that fails deletes its nodes' deliveries still on their way (of
   * several watchers: wait_until nodes in parallel branches) in the deliverer's order too.
   */
  @Test
  void aRunWithoutAGoalFailingWhileItsNodesDeliveriesAreMarkedWaitsForTheDeliverer()
      throws Exception {
    UUID runId = waitingRun(waitThenEmail(tenant, null));
    assertThat(goalWatches(runId.toString())).isZero();
    // the second of the outbox under the watcher that sorts first
    delivery(runId, "wait-a", SECOND, 2, false);
    delivery(runId, "wait-b", FIRST, 1, false);

    endWhileTheDelivererMarks(
        runId, () -> recorder.finishRun(runId.toString(), "failed", "the database said no"));

    assertThat(deliveries(runId)).as("both deliveries deleted with the run's end").isZero();
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
        .isEqualTo("failed");
  }

  /**
   * A node that stops waiting takes its watch out with the events routed to it, while the deliverer
   * marks them in the outbox's order: it takes them in that order too, and waits.
   */
  @Test
  void aNodeLeavingItsWatchWhileItsDeliveriesAreMarkedWaitsForTheDeliverer() throws Exception {
    UUID runId = waitingRun();
    delivery(runId, "wait", SECOND, 2, true);
    delivery(runId, "wait", FIRST, 1, true);

    endWhileTheDelivererMarks(runId, () -> watchActivities.unwatch(runId.toString(), "wait"));

    assertThat(deliveries(runId)).as("the node's deliveries left with its watch").isZero();
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
        .isEqualTo("running");
  }

  /** A run of a flow with a goal, waiting in its delay for a contact that is a lead. */
  private UUID waitingRun() {
    return waitingRun(waitThenEmail(tenant));
  }

  /** A run of the flow, waiting in its delay for a contact that is a lead. */
  private UUID waitingRun(Flow flow) {
    return UUID.fromString(
        fireAndAwaitDelay(tenant, flow, contact(tenant, "ada@example.com", "lead")));
  }

  /** The first delivery of the outbox, with the higher event id (a key's order differs). */
  private static final UUID FIRST = UUID.fromString("ffffffff-0000-4000-8000-000000000001");

  private static final UUID SECOND = UUID.fromString("00000000-0000-4000-8000-000000000002");

  /**
   * Stores a delivery; one not yet delivered is dated an hour ahead, so that the deliverer's rounds
   * (which take those older than their interval) leave it to the test.
   */
  private void delivery(UUID runId, String watcher, UUID event, long outbox, boolean delivered) {
    jdbc.sql(
            """
            insert into record_event_delivery (run_id, watcher, event_id, outbox_id, envelope,
                                               workflow_id, delivered_at, created_at)
            values (:run, :watcher, :event, :outbox, '{}', 'test',
                    case when :delivered then now() end, now() + interval '1 hour')
            """)
        .param("run", runId)
        .param("watcher", watcher)
        .param("event", event)
        .param("outbox", outbox)
        .param("delivered", delivered)
        .update();
  }

  private int deliveries(UUID runId) {
    return jdbc.sql("select count(*) from record_event_delivery where run_id = :run")
        .param("run", runId)
        .query(Integer.class)
        .single();
  }

  /**
   * As the deliverer does, marks {@link #FIRST} in a transaction; runs {@code end} beside it until
   * it waits for the deliverer; then marks {@link #SECOND} and commits. Taken in another order than
   * the deliverer's, the two deadlock, and PostgreSQL aborts one of them: the mark or the end
   * throws.
   */
  private void endWhileTheDelivererMarks(UUID runId, Runnable end) throws Exception {
    String mark =
        "update record_event_delivery set last_error = 'marked' where run_id = ? and event_id = ?";
    try (Connection deliverer = dataSource.getConnection()) {
      deliverer.setAutoCommit(false);
      int delivererPid = backendPid(deliverer);
      update(deliverer, mark, runId, FIRST);

      CompletableFuture<Void> ended = CompletableFuture.runAsync(end);
      awaitSomeoneWaitingFor(jdbc, delivererPid);
      update(deliverer, mark, runId, SECOND);
      deliverer.commit();

      ended.get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void anotherTenantsChangeNeverEndsARunThoughItsRunNamesTheSameContactId() {
    TenantClient other = newTenant();
    Flow mine = waitThenEmail(tenant);
    Flow theirs = waitThenEmail(other);
    String ada = contact(tenant, "ada@example.com", "lead");
    String myRun = fireAndAwaitDelay(tenant, mine, ada);
    // the other tenant's run names ada's id, which is no contact of theirs
    String theirRun = fireAndAwaitDelay(other, theirs, ada);

    stage(tenant, ada, "customer");

    JsonNode run = awaitRun(tenant.api(), myRun);
    assertThat(run.at("/exit/reason").asString()).as(run.toString()).isEqualTo("goal");
    assertThat(RecordIndexRows.routedTo(jdbc, theirRun))
        .as("nothing routed across tenants")
        .isZero();
    assertThat(other.api().get("/api/v1/automation-runs/" + theirRun).text("/run/status"))
        .isEqualTo("running");
    assertThat(status(other, theirRun, "wait")).isEqualTo("running");
  }

  @Test
  void theGoalIsCheckedLikeAConditionStoredWithTheVersionAndKeptByItsRestore() {
    String flow = automation(tenant.api(), "Nurture");
    String hook = uniqueId("hook");
    Map<String, Object> canvas = chain(hook, node("wait", "delay", Map.of("delayDays", 1)));

    ApiResponse bad =
        tenant
            .api()
            .put(
                "/api/sequences/" + flow + "/canvas",
                withGoal(
                    canvas,
                    Map.of("field", "{{trigger.stage}}", "operator", "is", "colour", "blue")));
    assertThat(bad.status()).as(bad.toString()).isEqualTo(400);
    assertThat(bad.contentType()).startsWith("application/problem+json");
    assertThat(bad.at("/errors").valueStream().map(e -> e.get("field").asString()))
        .containsExactlyInAnyOrder("goal.colour", "goal.field", "goal.operator");
    ApiResponse noValue =
        tenant
            .api()
            .put(
                "/api/sequences/" + flow + "/canvas",
                withGoal(canvas, Map.of("field", "{{contact.stage}}", "operator", "equals")));
    assertThat(noValue.status()).isEqualTo(400);
    assertThat(noValue.text("/errors/0/field")).isEqualTo("goal.value");
    assertThat(
            tenant
                .api()
                .put("/api/sequences/" + flow + "/canvas", withGoal(canvas, "customer"))
                .text("/errors/0/field"))
        .isEqualTo("goal");
    assertThat(tenant.api().get("/api/sequences/" + flow + "/canvas").at("/canvas/version").asInt())
        .as("nothing stored")
        .isZero();

    ApiResponse saved =
        tenant.api().put("/api/sequences/" + flow + "/canvas", withGoal(canvas, CUSTOMER));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    JsonNode stored = tenant.api().get("/api/sequences/" + flow + "/canvas").at("/canvas");
    assertThat(stored.at("/version").asInt()).isEqualTo(1);
    assertThat(stored.at("/goal/field").asString()).isEqualTo("{{contact.lifecycle_stage}}");
    assertThat(stored.at("/goal/operator").asString()).isEqualTo("equals");
    assertThat(stored.at("/goal/value").asString()).isEqualTo("customer");

    // left out: the goal stays; null: the flow has none from that version on
    tenant.api().put("/api/sequences/" + flow + "/canvas", canvas);
    assertThat(tenant.api().get("/api/sequences/" + flow + "/canvas").text("/canvas/goal/value"))
        .isEqualTo("customer");
    tenant.api().put("/api/sequences/" + flow + "/canvas", withGoal(canvas, null));
    JsonNode without = tenant.api().get("/api/sequences/" + flow + "/canvas").at("/canvas");
    assertThat(without.at("/version").asInt()).isEqualTo(3);
    assertThat(without.get("goal").isNull()).isTrue();
    assertThat(
            tenant.api().get("/api/sequences/" + flow + "/versions/1").text("/canvas/goal/value"))
        .isEqualTo("customer");

    ApiResponse restored =
        tenant.api().post("/api/sequences/" + flow + "/versions/1/restore", Map.of());
    assertThat(restored.status()).as(restored.toString()).isEqualTo(200);
    assertThat(tenant.api().get("/api/sequences/" + flow + "/canvas").text("/canvas/goal/value"))
        .isEqualTo("customer");

    ApiResponse badFilter = tenant.api().get("/api/v1/automation-runs?exit=cancelled");
    assertThat(badFilter.status()).isEqualTo(400);
    assertThat(badFilter.text("/errors/0/field")).isEqualTo("exit");
  }
}
