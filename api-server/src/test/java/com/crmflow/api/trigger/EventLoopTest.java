package com.crmflow.api.trigger;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.Flows.noteOfContactUpdates;
import static com.crmflow.api.support.Flows.titleFromTheBody;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.RefusedPort;
import com.crmflow.shared.outbound.CauseHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Loops end: events carry the run whose write produced them, an automation is never started again
 * by an event its own run (or a run it led to) caused, a chain of different automations stops at
 * crm.events.max-chain-depth, the runs started from one cause stop at
 * crm.events.max-runs-per-cause, and a call of the service's own public trigger by a run (its
 * CRM-Cause token) continues that run's chain; the writing node's log entry, or the trigger's
 * answer, says so. Only the service sets a run's cause: a "cause" in a webhook body is data.
 */
class EventLoopTest extends LoopTest {

  /** Where the tenant's webhook subscription points: deliveries are stored, then refused. */
  private final RefusedPort subscriber = new RefusedPort();

  @AfterEach
  void tearDown() {
    subscriber.close();
  }

  /**
   * An active automation: crm_event_trigger on contact.updated (with a filter on data.title if
   * given) → crm_update of the event's contact, writing {@code mappings}.
   */
  private String onContactUpdated(
      String name, String filterTitle, String writeNodeId, Map<String, Object> mappings) {
    Map<String, Object> trigger = new HashMap<>();
    trigger.put("eventType", "contact.updated");
    if (filterTitle != null) {
      trigger.put("filterField", "title");
      trigger.put("filterValue", filterTitle);
    }
    String triggerId = uniqueId("on-update");
    return activeAutomation(
        tenant.api(),
        name,
        canvas(
            List.of(
                node(triggerId, "crm_event_trigger", trigger),
                node(
                    writeNodeId,
                    "crm_update",
                    Map.of(
                        "entityType",
                        "contact",
                        "recordId",
                        "{{trigger.data.contact_id}}",
                        "fieldMappings",
                        mappings))),
            List.of(edge("e1", triggerId, writeNodeId))));
  }

  private JsonNode contact() {
    return tenant.api().get("/api/v1/contacts/" + contactId).at("/contact");
  }

  /**
   * Waits until every run of these automations has ended and every event is dispatched, then checks
   * over {@link #QUIET} that nothing more starts: the runs stay {@code expected} in number.
   */
  @Test
  void aContactUpdateStartsOneRunWhoseOwnWriteStartsNoSecond() {
    String stamp =
        onContactUpdated("Stamp title", null, "stamp", Map.of("title", "{{trigger.timestamp}}"));
    var subscribed =
        tenant
            .api()
            .post(
                "/api/v1/webhooks/subscribe",
                Map.of(
                    "url",
                    "https://127.0.0.1:" + subscriber.port() + "/updates",
                    "events",
                    List.of("contact.updated")));
    assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
    double cyclesBefore = refused(CrmEventTriggers.CYCLE);

    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Louis"));
    awaitSettled(Map.of(stamp, 1));

    JsonNode run = awaitRun(tenant.api(), runsOf(stamp).get(0).get("id").asString());
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.get("trigger_payload").has("cause")).as("an API client's event").isFalse();
    assertThat(run.get("cause").isNull()).as(run.toString()).isTrue();
    // written once: the run's write is the only contact.updated after the client's
    assertThat(contact().get("title").asString())
        .isEqualTo(run.at("/trigger_payload/timestamp").asString());
    List<JsonNode> updates = contactUpdates();
    assertThat(updates).hasSize(2);
    assertThat(updates.get(0).get("cause").isNull()).isTrue();
    JsonNode cause = updates.get(1).get("cause");
    assertThat(cause.get("run_id").asString()).isEqualTo(run.get("id").asString());
    assertThat(cause.get("sequence_id").asString()).isEqualTo(stamp);
    assertThat(cause.get("node_id").asString()).isEqualTo("stamp");
    assertThat(cause.get("chain").valueStream().map(JsonNode::asString)).containsExactly(stamp);
    assertThat(cause.get("depth").asInt()).isEqualTo(1);
    // subscribers get the envelope as it always was
    assertThat(updates.get(1).get("envelope").has("cause")).isFalse();

    JsonNode output = logEntry(run, "stamp").get("output");
    assertThat(output.get("id").asString()).isEqualTo(contactId);
    JsonNode notStarted = output.get("automations_not_started");
    assertThat(notStarted).as(output.toString()).hasSize(1);
    assertThat(notStarted.at("/0/event").asString()).isEqualTo("contact.updated");
    assertThat(notStarted.at("/0/event_id").asString()).isEqualTo(eventId(1));
    assertThat(notStarted.at("/0/automation_id").asString()).isEqualTo(stamp);
    assertThat(notStarted.at("/0/automation_name").asString()).isEqualTo("Stamp title");
    assertThat(notStarted.at("/0/reason").asString()).isEqualTo("cycle");
    assertThat(notStarted.at("/0/message").asString())
        .isEqualTo(
            "contact.updated from this write starts no run of automation \"Stamp title\": this"
                + " run is one of its runs, and an event a run's write produces never starts that"
                + " run's automation again (chain \"Stamp title\")");
    assertThat(refused(CrmEventTriggers.CYCLE) - cyclesBefore).isEqualTo(1);
    // a subscription is no loop: a delivery of both events, the run's too, once each
    awaitDeliveries(2);

    // the cause is the event's: an API client's next update starts the automation again
    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Lucas"));
    awaitSettled(Map.of(stamp, 2));
    JsonNode second =
        runsOf(stamp).stream()
            .filter(r -> !r.get("id").asString().equals(run.get("id").asString()))
            .findFirst()
            .orElseThrow();
    second = awaitRun(tenant.api(), second.get("id").asString());
    assertThat(second.get("status").asString()).as(second.toString()).isEqualTo("completed");
    assertThat(second.at("/trigger_payload/data/first_name").asString()).isEqualTo("Lucas");
    assertThat(second.get("trigger_payload").has("cause")).isFalse();
    assertThat(contact().get("title").asString())
        .isEqualTo(second.at("/trigger_payload/timestamp").asString());
    assertThat(contactUpdates()).hasSize(4);
    assertThat(logEntry(second, "stamp").at("/output/automations_not_started/0/reason").asString())
        .isEqualTo("cycle");
    assertThat(refused(CrmEventTriggers.CYCLE) - cyclesBefore).isEqualTo(2);
    awaitDeliveries(4);
  }

  /**
   * Checks that the dispatcher stored one webhook delivery of each contact.updated event, the run's
   * too ({@code count} in all), each with the envelope as subscribers always get it, and no more
   * over {@link #QUIET}.
   */
  private void awaitDeliveries(int count) {
    String deliveries =
        """
        select jsonb_build_object('event_id', event_id, 'body', body::jsonb)::text
        from webhook_delivery where tenant_id = :t order by created_at
        """;
    await()
        .during(QUIET)
        .atMost(QUIET.plusSeconds(5))
        .until(
            () ->
                jdbc.sql(deliveries).param("t", tenant.id()).query(String.class).list().size()
                    == count);
    List<JsonNode> stored =
        jdbc.sql(deliveries).param("t", tenant.id()).query(String.class).list().stream()
            .map(JSON::readTree)
            .toList();
    List<String> eventIds = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      eventIds.add(eventId(i));
    }
    assertThat(stored.stream().map(d -> d.get("event_id").asString()))
        .containsExactlyInAnyOrderElementsOf(eventIds);
    assertThat(stored.stream().map(d -> d.get("body")))
        .containsExactlyInAnyOrderElementsOf(
            contactUpdates().stream().map(update -> update.get("envelope")).toList());
  }

  /** The event_id of the tenant's n-th contact.updated event (from 0). */
  private String eventId(int n) {
    return jdbc.sql(
            """
            select event_id::text from event_outbox
            where tenant_id = :t and event = 'contact.updated' order by id offset :n limit 1
            """)
        .param("t", tenant.id())
        .param("n", n)
        .query(String.class)
        .single();
  }

  @Test
  void twoAutomationsStartEachOtherOnceAndNeverComeBackToTheFirst() {
    String titles =
        onContactUpdated("Titles", null, "set-title", Map.of("title", "{{trigger.timestamp}}"));
    String departments =
        onContactUpdated(
            "Departments", null, "set-department", Map.of("department", "{{trigger.timestamp}}"));

    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Louis"));
    // the client's update starts both; each one's write starts the other; nothing more
    awaitSettled(Map.of(titles, 2, departments, 2));

    JsonNode departmentsAfterTitles =
        runsOf(departments).stream()
            .map(r -> awaitRun(tenant.api(), r.get("id").asString()))
            .filter(r -> r.get("cause").isObject())
            .findFirst()
            .orElseThrow();
    JsonNode titlesFirst =
        runsOf(titles).stream()
            .map(r -> awaitRun(tenant.api(), r.get("id").asString()))
            .filter(r -> r.get("cause").isNull())
            .findFirst()
            .orElseThrow();
    JsonNode cause = departmentsAfterTitles.get("cause");
    assertThat(departmentsAfterTitles.get("trigger_payload").has("cause")).isFalse();
    assertThat(cause.get("run_id").asString()).isEqualTo(titlesFirst.get("id").asString());
    assertThat(cause.get("sequence_id").asString()).isEqualTo(titles);
    assertThat(cause.get("node_id").asString()).isEqualTo("set-title");
    assertThat(cause.get("chain").valueStream().map(JsonNode::asString)).containsExactly(titles);
    assertThat(cause.get("depth").asInt()).isEqualTo(1);

    // its write's event would start Titles (A → B → A) and Departments (itself): neither starts
    JsonNode notStarted =
        logEntry(departmentsAfterTitles, "set-department").at("/output/automations_not_started");
    Map<String, String> reasons = new HashMap<>();
    Map<String, String> messages = new HashMap<>();
    notStarted.forEach(
        entry -> {
          reasons.put(entry.get("automation_id").asString(), entry.get("reason").asString());
          messages.put(entry.get("automation_name").asString(), entry.get("message").asString());
        });
    assertThat(reasons).isEqualTo(Map.of(titles, "cycle", departments, "cycle"));
    assertThat(messages.get("Titles"))
        .isEqualTo(
            "contact.updated from this write starts no run of automation \"Titles\": a run of it"
                + " led to this run (chain \"Titles\" -> \"Departments\"), and an event a run's"
                + " write produces never starts an automation of the chain that led to it again");

    List<JsonNode> updates = contactUpdates();
    // the client's, then one per run: every run wrote once
    assertThat(updates).hasSize(5);
    List<List<String>> chains = new ArrayList<>();
    for (JsonNode update : updates.subList(1, 5)) {
      chains.add(update.at("/cause/chain").valueStream().map(JsonNode::asString).toList());
    }
    assertThat(chains)
        .containsExactlyInAnyOrder(
            List.of(titles),
            List.of(departments),
            List.of(titles, departments),
            List.of(departments, titles));
  }

  @Test
  void aChainOfDifferentAutomationsStopsAtTheDepthLimit() {
    int limit = properties.events().maxChainDepth();
    // automation i runs when the title is "step-(i-1)" and writes "step-i": one after the other
    List<String> steps = new ArrayList<>();
    for (int i = 1; i <= limit + 1; i++) {
      steps.add(
          onContactUpdated(
              "Step " + i, "step-" + (i - 1), "write-" + i, Map.of("title", "step-" + i)));
    }
    double depthBefore = refused(CrmEventTriggers.DEPTH);

    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("title", "step-0"));
    Map<String, Integer> expected = new HashMap<>();
    for (int i = 0; i < limit; i++) {
      expected.put(steps.get(i), 1);
    }
    expected.put(steps.get(limit), 0);
    awaitSettled(expected);

    assertThat(contact().get("title").asString()).isEqualTo("step-" + limit);
    JsonNode last =
        awaitRun(tenant.api(), runsOf(steps.get(limit - 1)).get(0).get("id").asString());
    assertThat(last.at("/cause/depth").asInt()).isEqualTo(limit - 1);
    JsonNode notStarted = logEntry(last, "write-" + limit).at("/output/automations_not_started");
    assertThat(notStarted).as(last.toString()).hasSize(1);
    assertThat(notStarted.at("/0/automation_id").asString()).isEqualTo(steps.get(limit));
    assertThat(notStarted.at("/0/reason").asString()).isEqualTo("depth");
    assertThat(notStarted.at("/0/message").asString())
        .startsWith(
            "contact.updated from this write starts no run of automation \"Step "
                + (limit + 1)
                + "\": this run is run "
                + limit
                + " of a chain of runs started by each other's writes (\"Step 1\" -> \"Step 2\"")
        .endsWith(
            "\"Step " + limit + "\"), the most crm.events.max-chain-depth (" + limit + ") allows");
    assertThat(refused(CrmEventTriggers.DEPTH) - depthBefore).isEqualTo(1);
    // the runs before the last started their successor: nothing in their log
    JsonNode first = awaitRun(tenant.api(), runsOf(steps.get(0)).get(0).get("id").asString());
    assertThat(logEntry(first, "write-1").get("output").has("automations_not_started")).isFalse();
  }

  /** How many runs of the tenant's automations started with a cause, and how many without. */
  private Map<Boolean, Long> runsByCause() {
    Map<Boolean, Long> counted = new HashMap<>(Map.of(true, 0L, false, 0L));
    jdbc.sql(
            """
            select cause is not null as caused, count(*) as runs
            from automation_run where tenant_id = :t group by 1
            """)
        .param("t", tenant.id())
        .query((rs, row) -> counted.put(rs.getBoolean("caused"), rs.getLong("runs")))
        .list();
    return counted;
  }

  @Test
  void aFanOutOfAutomationsThatStartEachOtherStopsAtTheRunBudgetOfItsCause() {
    int budget = properties.events().maxRunsPerCause();
    // four automations that each write the contact: without a budget 4·3 + 4·3·2 + 4·3·2·1 = 60
    // runs follow the client's update (the chains are at most 4 long, under the depth limit)
    assertThat(budget).isLessThan(60);
    assertThat(properties.events().maxChainDepth()).isGreaterThan(4);
    List<String> fields = List.of("title", "department", "first_name", "last_name");
    List<String> fans = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      fans.add(
          onContactUpdated(
              "Fan " + (i + 1),
              null,
              "write-" + fields.get(i),
              Map.of(fields.get(i), "{{trigger.timestamp}}")));
    }
    double budgetBefore = refused(CrmEventTriggers.BUDGET);
    double depthBefore = refused(CrmEventTriggers.DEPTH);

    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("title", "fan-out"));
    await()
        .atMost(Duration.ofSeconds(150))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                runsByCause().get(true) == budget
                    && pendingEvents() == 0
                    && jdbc.sql(
                                "select count(*) from automation_run where tenant_id = :t"
                                    + " and status = 'running'")
                            .param("t", tenant.id())
                            .query(Long.class)
                            .single()
                        == 0);
    await()
        .during(QUIET)
        .atMost(QUIET.plusSeconds(5))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> runsByCause().equals(Map.of(true, (long) budget, false, 4L)));

    // every caused run counts against the client's event, the root of all the chains
    String root = eventId(0);
    assertThat(
            jdbc.sql(
                    """
                    select distinct cause ->> 'root' from automation_run
                    where tenant_id = :t and cause is not null
                    """)
                .param("t", tenant.id())
                .query(String.class)
                .list())
        .containsExactly(root);
    assertThat(
            jdbc.sql(
                    """
                    select count(*) from event_outbox where tenant_id = :t and cause is not null
                      and cause ->> 'root' <> :root
                    """)
                .param("t", tenant.id())
                .param("root", root)
                .query(Long.class)
                .single())
        .isZero();

    // each start the budget refused is in the node log of the write whose event it was
    List<JsonNode> refusals = new ArrayList<>();
    for (String fan : fans) {
      for (String runId :
          jdbc.sql("select id::text from automation_run where tenant_id = :t and sequence_id = :s")
              .param("t", tenant.id())
              .param("s", UUID.fromString(fan))
              .query(String.class)
              .list()) {
        JsonNode run = awaitRun(tenant.api(), runId);
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
        for (JsonNode entry : run.get("node_log")) {
          JsonNode notStarted = entry.at("/output/automations_not_started");
          notStarted.forEach(
              n -> {
                if (n.get("reason").asString().equals("budget")) {
                  refusals.add(n);
                }
              });
        }
      }
    }
    assertThat(refusals).isNotEmpty();
    assertThat(refused(CrmEventTriggers.BUDGET) - budgetBefore).isEqualTo(refusals.size());
    assertThat(refused(CrmEventTriggers.DEPTH) - depthBefore).isZero();
    assertThat(refusals.get(0).get("message").asString())
        .startsWith("contact.updated from this write starts no run of automation \"Fan ")
        .contains("the chains of runs started by each other's writes from one cause (this one: ")
        .endsWith(
            ") have started "
                + budget
                + " runs, the most crm.events.max-runs-per-cause ("
                + budget
                + ") allows");
    assertThat(fans).contains(refusals.get(0).get("automation_id").asString());

    // another client update is another root, with a budget of its own
    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("title", "again"));
    await()
        .atMost(Duration.ofSeconds(150))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> runsByCause().get(false) == 8 && runsByCause().get(true) == 2L * budget);
  }

  /** An active automation on contact.updated that writes nothing: crm_event_trigger → map. */
  private String listening(String name) {
    return activeAutomation(tenant.api(), name, noteOfContactUpdates(uniqueId("listen")));
  }

  /** An active automation: webhook_trigger → crm_update of the body's contact (its title). */
  private String titlesFromOutside(String hookId) {
    return activeAutomation(tenant.api(), "Titles from outside", titleFromTheBody(hookId));
  }

  /** A public trigger call, sent again while the admission asks to (503); answered 200. */
  private String fireAdmitted(String hookId, Map<String, Object> body, String causeHeader) {
    return admitted(anonymous().withHeader("CRM-Cause", causeHeader), hookId, body).text("/runId");
  }

  /** The client's call of the public trigger, sent again while the admission asks to (503). */
  private ApiResponse admitted(ApiClient client, String hookId, Map<String, Object> body) {
    ApiResponse[] answer = new ApiResponse[1];
    await()
        .atMost(Patience.EVENTUALLY)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              answer[0] =
                  client.post("/api/webhooks/automation/" + tenant.id() + "/" + hookId, body);
              return answer[0].status() != 503;
            });
    assertThat(answer[0].status()).as(answer[0].toString()).isEqualTo(200);
    return answer[0];
  }

  /**
   * A "cause" in a public trigger call's body is the caller's: kept in the payload as sent, never
   * read as the run's cause, so a made-up chain naming an automation (a cycle) or as long as the
   * limit (depth) holds nothing back.
   */
  @Test
  void aCauseInAWebhookBodyIsTheCallersDataAndHoldsNothingBack() {
    String listener = listening("Listener");
    String hookId = uniqueId("hook");
    String hook = titlesFromOutside(hookId);
    double cyclesBefore = refused(CrmEventTriggers.CYCLE);
    double depthBefore = refused(CrmEventTriggers.DEPTH);
    Map<String, Object> cycle =
        Map.of(
            "run_id",
            UUID.randomUUID().toString(),
            "sequence_id",
            listener,
            "node_id",
            "x",
            "chain",
            List.of(listener),
            "depth",
            1,
            "root",
            UUID.randomUUID().toString());
    List<String> made = new ArrayList<>();
    for (int i = 0; i < properties.events().maxChainDepth(); i++) {
      made.add(UUID.randomUUID().toString());
    }
    Map<String, Object> depth =
        Map.of(
            "run_id",
            UUID.randomUUID().toString(),
            "sequence_id",
            made.get(0),
            "chain",
            made,
            "depth",
            made.size(),
            "root",
            UUID.randomUUID().toString());

    fire(
        anonymous(),
        tenant.id(),
        hookId,
        Map.of("contact_id", contactId, "title", "cycle", "cause", cycle));
    fire(
        anonymous(),
        tenant.id(),
        hookId,
        Map.of("contact_id", contactId, "title", "depth", "cause", depth));
    // each write of the hook's runs starts the listener: nothing refused
    awaitSettled(Map.of(hook, 2, listener, 2));

    Map<String, Map<String, Object>> sent = Map.of("cycle", cycle, "depth", depth);
    for (String title : sent.keySet()) {
      JsonNode run = runWithTitle(hook, title);
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(run.get("cause").isNull()).as(run.toString()).isTrue();
      assertThat(run.at("/trigger_payload/cause")).isEqualTo(JSON.valueToTree(sent.get(title)));
      assertThat(logEntry(run, "set-title").get("output").has("automations_not_started"))
          .as(run.toString())
          .isFalse();
    }
    // the writes' events carry the hook's run as the only link of their chain
    for (JsonNode update : contactUpdates()) {
      JsonNode cause = update.get("cause");
      assertThat(cause.get("chain").valueStream().map(JsonNode::asString)).containsExactly(hook);
      assertThat(cause.get("root").asString()).isEqualTo(cause.get("run_id").asString());
    }
    for (JsonNode started : runsOf(listener)) {
      JsonNode run = awaitRun(tenant.api(), started.get("id").asString());
      assertThat(run.at("/cause/chain").valueStream().map(JsonNode::asString))
          .containsExactly(hook);
    }
    assertThat(refused(CrmEventTriggers.CYCLE) - cyclesBefore).isZero();
    assertThat(refused(CrmEventTriggers.DEPTH) - depthBefore).isZero();
  }

  /**
   * More calls than a root's budget that name a real run as their root, in the body and in a
   * CRM-Cause header of that run's id: none is counted against that run's chains, whose budget
   * stays as the run's own write left it.
   */
  @Test
  void callsNamingARealRunAsTheirRootSpendNothingOfItsBudget() {
    int budget = properties.events().maxRunsPerCause();
    String listener = listening("Listener");
    String hookId = uniqueId("hook");
    String hook = titlesFromOutside(hookId);
    String real =
        fire(anonymous(), tenant.id(), hookId, Map.of("contact_id", contactId, "title", "real"));
    awaitSettled(Map.of(hook, 1, listener, 1));
    double budgetBefore = refused(CrmEventTriggers.BUDGET);

    Map<String, Object> claimed =
        Map.of(
            "run_id",
            real,
            "sequence_id",
            hook,
            "node_id",
            "set-title",
            "chain",
            List.of(hook),
            "depth",
            1,
            "root",
            real);
    for (int i = 0; i < budget + 2; i++) {
      fireAdmitted(
          hookId,
          Map.of("contact_id", contactId, "title", "claim-" + i, "cause", claimed),
          real + ":set-title");
    }
    awaitSettled(
        Map.of(hook, budget + 3, listener, budget + 3), Patience.EVENTUALLY.multipliedBy(2));

    // the real run's root has the one run its own write started, as before the calls
    assertThat(
            jdbc.sql(
                    "select count(*) from automation_run where tenant_id = :t"
                        + " and cause ->> 'root' = :root")
                .param("t", tenant.id())
                .param("root", real)
                .query(Long.class)
                .single())
        .isEqualTo(1);
    assertThat(refused(CrmEventTriggers.BUDGET) - budgetBefore).isZero();
    // each call's run is a root of its own: no cause, and its write's event names it
    for (JsonNode started : runsOf(hook)) {
      assertThat(started.get("cause").isNull()).as(started.toString()).isTrue();
    }
    assertThat(contactUpdates())
        .hasSize(budget + 3)
        .allSatisfy(
            update ->
                assertThat(update.at("/cause/root").asString())
                    .isEqualTo(update.at("/cause/run_id").asString()));
  }

  /** The automation's run whose trigger payload has this title. */
  private JsonNode runWithTitle(String sequenceId, String title) {
    return runsOf(sequenceId).stream()
        .map(r -> awaitRun(tenant.api(), r.get("id").asString()))
        .filter(r -> title.equals(r.at("/trigger_payload/title").asString(null)))
        .findFirst()
        .orElseThrow();
  }

  private String triggerUrl(String nodeId) {
    return baseUrl() + "/api/webhooks/automation/" + tenant.id() + "/" + nodeId;
  }

  /** webhook_trigger → http_request POSTing {"from": name} to the url (with extra headers). */
  private String caller(String name, String triggerId, String url, Map<String, String> headers) {
    return activeAutomation(
        tenant.api(),
        name,
        chain(
            triggerId,
            node(
                "call",
                "http_request",
                http(
                    "POST",
                    url,
                    "bodyTemplate",
                    "{\"from\": \"" + name + "\"}",
                    "headers",
                    headers))));
  }

  @Test
  void runsThatCallTheServicesOwnPublicTriggerEndTheLoop() {
    String pingId = uniqueId("ping");
    String pongId = uniqueId("pong");
    String echoId = uniqueId("echo");
    String ping = caller("Ping", pingId, triggerUrl(pongId), Map.of());
    // a CRM-Cause of the node's own naming no run is replaced by the service's
    String pong =
        caller(
            "Pong", pongId, triggerUrl(pingId), Map.of("crm-cause", UUID.randomUUID() + ":forged"));
    String echo = caller("Echo", echoId, triggerUrl(echoId), Map.of());
    double cyclesBefore = refused(CrmEventTriggers.CYCLE);

    String first = fire(anonymous(), tenant.id(), pingId, Map.of("from", "outside"));
    String echoed = fire(anonymous(), tenant.id(), echoId, Map.of("from", "outside"));
    awaitSettled(Map.of(ping, 1, pong, 1, echo, 1));

    // Ping's call started Pong, whose run continues Ping's chain
    JsonNode pinged = awaitRun(tenant.api(), first);
    assertThat(pinged.get("status").asString()).as(pinged.toString()).isEqualTo("completed");
    assertThat(pinged.get("cause").isNull()).isTrue();
    JsonNode ponged = awaitRun(tenant.api(), runsOf(pong).get(0).get("id").asString());
    assertThat(ponged.get("status").asString()).as(ponged.toString()).isEqualTo("completed");
    // the body as Ping sent it; the cause beside it
    assertThat(ponged.get("trigger_payload")).isEqualTo(JSON.readTree("{\"from\": \"Ping\"}"));
    JsonNode cause = ponged.get("cause");
    assertThat(cause.get("run_id").asString()).isEqualTo(first);
    assertThat(cause.get("sequence_id").asString()).isEqualTo(ping);
    assertThat(cause.get("node_id").asString()).isEqualTo("call");
    assertThat(cause.get("chain").valueStream().map(JsonNode::asString)).containsExactly(ping);
    assertThat(cause.get("root").asString()).isEqualTo(first);
    assertThat(logEntry(pinged, "call").at("/output/body/runId").asString())
        .isEqualTo(ponged.get("id").asString());

    // Pong's call back to Ping started nothing, and its answer says why
    JsonNode answer = logEntry(ponged, "call").at("/output/body");
    assertThat(answer.get("received").asBoolean()).as(answer.toString()).isTrue();
    assertThat(answer.get("runId").isNull()).isTrue();
    assertThat(answer.at("/notStarted/reason").asString()).isEqualTo("cycle");
    assertThat(answer.at("/notStarted/message").asString())
        .isEqualTo(
            "This call starts no run: this trigger's automation led to the run it comes from,"
                + " and a call a run makes never starts an automation of the chain that led to it"
                + " again");

    // Echo's call to its own trigger started nothing
    JsonNode echoRun = awaitRun(tenant.api(), echoed);
    assertThat(echoRun.get("status").asString()).as(echoRun.toString()).isEqualTo("completed");
    assertThat(logEntry(echoRun, "call").at("/output/body/notStarted/reason").asString())
        .isEqualTo("cycle");
    assertThat(logEntry(echoRun, "call").at("/output/body/notStarted/message").asString())
        .contains(
            "the run it comes from is a run of this trigger's automation, and a call a run makes"
                + " never starts that run's automation again");
    assertThat(refused(CrmEventTriggers.CYCLE) - cyclesBefore).isEqualTo(2);
  }

  /**
   * A repeated delivery (the same Idempotency-Key) of the call that took the last run of its
   * cause's budget is answered with the run that call started, and is no refusal: neither counted
   * nor logged. Only a new call is refused.
   */
  @Test
  void aRepeatOfTheCallThatTookTheLastOfTheBudgetIsAnsweredWithItsRunAndCountsNoRefusal() {
    int budget = properties.events().maxRunsPerCause();
    LocalHttpServer peer = new LocalHttpServer();
    peer.answer("/x", 200, "{}");
    String rootId = uniqueId("root");
    caller("Root", rootId, peer.url("/x"), Map.of());
    String root = fire(anonymous(), tenant.id(), rootId, Map.of("from", "outside"));
    awaitRun(tenant.api(), root);
    String targetId = uniqueId("target");
    String target =
        activeAutomation(
            tenant.api(), "Waits", chain(targetId, node("wait", "delay", Map.of("delayDays", 1))));
    String cause =
        causeHeader
            .value(tenant.id(), new CauseHeader.Cause(UUID.fromString(root), "call"))
            .orElseThrow();
    String last = null;
    for (int i = 1; i <= budget; i++) {
      last = fireWithKey(targetId, cause, "delivery-" + i).text("/runId");
    }
    double budgetBefore = refused(CrmEventTriggers.BUDGET);

    ApiResponse repeat = fireWithKey(targetId, cause, "delivery-" + budget);
    assertThat(repeat.text("/runId")).as(repeat.toString()).isEqualTo(last);
    assertThat(refused(CrmEventTriggers.BUDGET) - budgetBefore)
        .as("the repeat is answered, not refused")
        .isZero();

    ApiResponse fresh = fireWithKey(targetId, cause, "delivery-" + (budget + 1));
    assertThat(fresh.json().get("runId").isNull()).as(fresh.toString()).isTrue();
    assertThat(fresh.text("/notStarted/reason")).isEqualTo(CrmEventTriggers.BUDGET);
    assertThat(refused(CrmEventTriggers.BUDGET) - budgetBefore).isEqualTo(1);
    assertThat(runsOf(target)).hasSize(budget);
    peer.close();
  }

  /** A public trigger call with a CRM-Cause and an Idempotency-Key, sent again on 503; a 200. */
  private ApiResponse fireWithKey(String hookId, String cause, String key) {
    return admitted(
        anonymous().withHeader("CRM-Cause", cause).withHeader("Idempotency-Key", key),
        hookId,
        Map.of("key", key));
  }

  /**
   * Anyone who knows a trigger's address may call it: a call refused by the loop rules is told why
   * without the names of the tenant's automations (nor their ids), nor the run its token names.
   */
  @Test
  void aRefusedCallNamesNoAutomationOfTheTenantToItsCaller() {
    LocalHttpServer peer = new LocalHttpServer();
    peer.answer("/x", 200, "{}");
    String echoId = uniqueId("echo");
    String echo = caller("Acquisition plans Q3", echoId, peer.url("/x"), Map.of());
    String first = fire(anonymous(), tenant.id(), echoId, Map.of("from", "outside"));
    awaitRun(tenant.api(), first);

    ApiResponse refused =
        anonymous()
            .withHeader(
                "CRM-Cause",
                causeHeader
                    .value(tenant.id(), new CauseHeader.Cause(UUID.fromString(first), "call"))
                    .orElseThrow())
            .post("/api/webhooks/automation/" + tenant.id() + "/" + echoId, Map.of("from", "me"));

    assertThat(refused.status()).as(refused.toString()).isEqualTo(200);
    assertThat(refused.at("/runId").isNull()).isTrue();
    assertThat(refused.at("/notStarted/reason").asString()).isEqualTo("cycle");
    assertThat(refused.at("/notStarted/message").asString())
        .isEqualTo(
            "This call starts no run: the run it comes from is a run of this trigger's"
                + " automation, and a call a run makes never starts that run's automation again");
    assertThat(refused.rawBody())
        .doesNotContain("Acquisition")
        .doesNotContain(echo)
        .doesNotContain(first);
    assertThat(runsOf(echo)).hasSize(1);
    peer.close();
  }

  /**
   * A CRM-Cause names a run only as a token this deployment made for the trigger's tenant: the run
   * it starts continues that run's chain, whatever JSON its body is. A run's id in plain text, any
   * other text, and a token made for another tenant start a run without a cause.
   */
  @Test
  void onlyThisDeploymentsTokenForTheTenantNamesARun() {
    LocalHttpServer peer = new LocalHttpServer();
    peer.answer("/x", 200, "{}");
    String echoId = uniqueId("echo");
    String echo = caller("Echo", echoId, peer.url("/x"), Map.of());
    String targetId = uniqueId("target");
    String target = caller("Target", targetId, peer.url("/x"), Map.of());
    String first = fire(anonymous(), tenant.id(), echoId, Map.of("from", "outside"));
    awaitRun(tenant.api(), first);
    String path = "/api/webhooks/automation/" + tenant.id() + "/" + targetId;
    CauseHeader.Cause echoCall = new CauseHeader.Cause(UUID.fromString(first), "call");

    ApiResponse array =
        anonymous()
            .withHeader("CRM-Cause", causeHeader.value(tenant.id(), echoCall).orElseThrow())
            .send("POST", path, "[1, 2]", "application/json");
    assertThat(array.status()).as(array.toString()).isEqualTo(200);
    JsonNode caused = awaitRun(tenant.api(), array.text("/runId"));
    assertThat(caused.get("trigger_payload")).isEqualTo(JSON.readTree("[1, 2]"));
    assertThat(caused.at("/cause/run_id").asString()).isEqualTo(first);
    assertThat(caused.at("/cause/chain").valueStream().map(JsonNode::asString))
        .containsExactly(echo);

    TenantClient other = newTenant();
    for (String header :
        List.of(
            first + ":call", "garbage", causeHeader.value(other.id(), echoCall).orElseThrow())) {
      ApiResponse accepted =
          anonymous().withHeader("CRM-Cause", header).post(path, Map.of("from", header));
      assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
      JsonNode run = awaitRun(tenant.api(), accepted.text("/runId"));
      assertThat(run.get("cause").isNull()).as(header).isTrue();
      assertThat(run.at("/trigger_payload/from").asString()).isEqualTo(header);
    }
    assertThat(runsOf(target)).hasSize(4);

    // this tenant's token at another tenant's trigger: no cause there
    String otherId = uniqueId("other");
    activeAutomation(
        other.api(), chain(otherId, node("call", "http_request", http("POST", peer.url("/x")))));
    ApiResponse accepted =
        anonymous()
            .withHeader("CRM-Cause", causeHeader.value(tenant.id(), echoCall).orElseThrow())
            .post("/api/webhooks/automation/" + other.id() + "/" + otherId, Map.of("from", "x"));
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
    JsonNode run = awaitRun(other.api(), accepted.text("/runId"));
    assertThat(run.get("cause").isNull()).as(run.toString()).isTrue();
    peer.close();
  }
}
