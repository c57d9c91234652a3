package com.crmflow.api.reenroll;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.completeSequence;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Re-enrollment rules (settings.reenroll): a record that has or had a run of a flow starts another
 * always (the default), never, or again after some days, on every way a run starts.
 */
class ReenrollmentApiTest extends ApiTest {

  private static Map<String, Object> withSettings(
      Map<String, Object> canvas, Map<String, Object> settings) {
    Map<String, Object> body = new HashMap<>(canvas);
    body.put("settings", settings);
    return body;
  }

  /** webhook → a delay of a day: its runs wait, so every run of it is still there to count. */
  private static Map<String, Object> waitingFlow(String hook) {
    return chain(hook, node("wait", "delay", Map.of("delayDays", 1)));
  }

  private String contact(TenantClient tenant, String email) {
    return tenant.api().post("/api/v1/contacts", Map.of("email", email)).text("/contact/id");
  }

  private int runsOf(UUID tenantId, String sequenceId) {
    return jdbc.sql("select count(*) from automation_run where tenant_id = :t and sequence_id = :s")
        .param("t", tenantId)
        .param("s", UUID.fromString(sequenceId))
        .query(Integer.class)
        .single();
  }

  @Test
  void withNeverASecondTriggerForTheSameContactStartsNoRunAndTheAnswerSaysWhy() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(), withSettings(waitingFlow(hook), Map.of("reenroll", "never")));
    assertThat(
            tenant
                .api()
                .get("/api/sequences/" + flow + "/canvas")
                .text("/canvas/settings/reenroll"))
        .isEqualTo("never");
    String ada = contact(tenant, "ada@example.com");
    String bob = contact(tenant, "bob@example.com");

    String first = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    ApiResponse again =
        anonymous()
            .post(
                "/api/webhooks/automation/" + tenant.id() + "/" + hook, Map.of("contact_id", ada));

    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("runId").isNull()).isTrue();
    assertThat(again.text("/notStarted/reason")).isEqualTo("reenroll");
    assertThat(again.text("/notStarted/message"))
        .contains("contact " + ada)
        .contains("run " + first)
        .contains("settings.reenroll: never");
    assertThat(fire(anonymous(), tenant.id(), hook, Map.of("contact_id", bob))).isNotBlank();
    assertThat(fire(anonymous(), tenant.id(), hook, Map.of("no_contact", true)))
        .as("a call for no record is never held back")
        .isNotBlank();
    assertThat(runsOf(tenant.id(), flow)).isEqualTo(3);
  }

  @Test
  void twentyTriggersForOneContactAtTheSameInstantStartExactlyOneRun() throws Exception {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(), withSettings(waitingFlow(hook), Map.of("reenroll", "never")));
    String ada = contact(tenant, "ada@example.com");
    ExecutorService pool = Executors.newFixedThreadPool(20);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<ApiResponse>> calls = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        calls.add(
            pool.submit(
                () -> {
                  go.await();
                  return anonymous()
                      .post(
                          "/api/webhooks/automation/" + tenant.id() + "/" + hook,
                          Map.of("contact_id", ada));
                }));
      }
      go.countDown();
      int started = 0;
      int held = 0;
      for (Future<ApiResponse> call : calls) {
        ApiResponse answer = call.get();
        assertThat(answer.status()).as(answer.toString()).isIn(200, 503);
        if (answer.status() == 200 && !answer.json().get("runId").isNull()) {
          started++;
        } else if (answer.status() == 200) {
          assertThat(answer.text("/notStarted/reason")).isEqualTo("reenroll");
          held++;
        }
      }
      assertThat(started).isEqualTo(1);
      assertThat(held).isGreaterThan(0);
    } finally {
      pool.shutdownNow();
    }
    assertThat(runsOf(tenant.id(), flow)).isEqualTo(1);
  }

  @Test
  void withAfterARecordStartsAgainOnceItsDaysHavePassed() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(),
            withSettings(waitingFlow(hook), Map.of("reenroll", "after", "reenroll_after_days", 7)));
    String ada = contact(tenant, "ada@example.com");
    fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    ApiResponse tooSoon =
        anonymous()
            .post(
                "/api/webhooks/automation/" + tenant.id() + "/" + hook, Map.of("contact_id", ada));
    assertThat(tooSoon.text("/notStarted/message")).contains("less than 7 days ago");

    // eight days later, as far as the rule can tell
    jdbc.sql(
            """
            update flow_record_run set last_started_at = now() - interval '8 days'
            where sequence_id = :s
            """)
        .param("s", UUID.fromString(flow))
        .update();
    fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    assertThat(runsOf(tenant.id(), flow)).isEqualTo(2);
  }

  @Test
  void aRepeatedDeliveryIsAnsweredWithItsEarlierRunWhateverTheRuleSaysAndClaimsNothing() {
    TenantClient tenant = newTenant();
    String never = uniqueId("never");
    String after = uniqueId("after");
    activeAutomation(tenant.api(), withSettings(waitingFlow(never), Map.of("reenroll", "never")));
    String weekly =
        activeAutomation(
            tenant.api(),
            withSettings(
                waitingFlow(after), Map.of("reenroll", "after", "reenroll_after_days", 7)));
    String ada = contact(tenant, "ada@example.com");
    var delivery = anonymous().withHeader("Idempotency-Key", "delivery-1");
    String base = "/api/webhooks/automation/" + tenant.id() + "/";

    String first = delivery.post(base + never, Map.of("contact_id", ada)).text("/runId");
    ApiResponse repeat = delivery.post(base + never, Map.of("contact_id", ada));
    assertThat(repeat.status()).as(repeat.toString()).isEqualTo(200);
    assertThat(repeat.text("/runId")).as("the earlier run, not a refusal").isEqualTo(first);

    // a repeat the rule would let start again: the claim it takes is rolled back with the insert
    String weeklyFirst = delivery.post(base + after, Map.of("contact_id", ada)).text("/runId");
    jdbc.sql(
            """
            update flow_record_run set last_started_at = now() - interval '8 days'
            where sequence_id = :s
            """)
        .param("s", UUID.fromString(weekly))
        .update();
    ApiResponse weeklyRepeat = delivery.post(base + after, Map.of("contact_id", ada));
    assertThat(weeklyRepeat.text("/runId")).isEqualTo(weeklyFirst);
    Map<String, Object> claim =
        jdbc.sql(
                """
                select last_run_id::text as last_run, runs,
                       last_started_at < now() - interval '7 days' as aged
                from flow_record_run where sequence_id = :s
                """)
            .param("s", UUID.fromString(weekly))
            .query()
            .singleRow();
    assertThat(claim)
        .as("the record's claim still names the earlier run and its start")
        .containsEntry("last_run", weeklyFirst)
        .containsEntry("runs", 1)
        .containsEntry("aged", true);
    assertThat(
            jdbc.sql("select count(*) from automation_run where tenant_id = :t")
                .param("t", tenant.id())
                .query(Integer.class)
                .single())
        .isEqualTo(2);
  }

  @Test
  void aCrmEventForAContactThatHadARunStartsNoSecondOne() {
    TenantClient tenant = newTenant();
    String trigger = uniqueId("on-update");
    Map<String, Object> canvas = chain(trigger, node("wait", "delay", Map.of("delayDays", 1)));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> nodes =
        new ArrayList<>((List<Map<String, Object>>) canvas.get("nodes"));
    nodes.set(0, node(trigger, "crm_event_trigger", Map.of("eventType", "contact.updated")));
    Map<String, Object> body = new HashMap<>(canvas);
    body.put("nodes", nodes);
    String flow = activeAutomation(tenant.api(), withSettings(body, Map.of("reenroll", "never")));
    String ada = contact(tenant, "ada@example.com");

    tenant.api().patch("/api/v1/contacts/" + ada, Map.of("first_name", "Ada"));
    tenant.api().patch("/api/v1/contacts/" + ada, Map.of("first_name", "Ada L."));
    tenant.api().patch("/api/v1/contacts/" + ada, Map.of("first_name", "Ada Lovelace"));
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                jdbc.sql(
                            """
                        select count(*) from event_outbox
                        where tenant_id = :t and event = 'contact.updated' and dispatched_at is null
                        """)
                        .param("t", tenant.id())
                        .query(Integer.class)
                        .single()
                    == 0);
    assertThat(runsOf(tenant.id(), flow)).isEqualTo(1);
  }

  @Test
  void aSequenceThatEnrollsOnceRefusesToEnrollAContactWhoseEnrollmentEnded() {
    TenantClient tenant = newTenant();
    String sequenceId = sequence(tenant.api(), "Once");
    assertThat(
            tenant
                .api()
                .put(
                    "/api/sequences/" + sequenceId + "/canvas",
                    withSettings(completeSequence(), Map.of("reenroll", "never")))
                .status())
        .isEqualTo(200);
    tenant.api().patch("/api/v1/sequences/" + sequenceId, Map.of("status", "active"));
    String ada = contact(tenant, "ada@example.com");
    Map<String, Object> enrollment = Map.of("sequence_id", sequenceId, "contact_id", ada);
    assertThat(tenant.api().post("/api/v1/sequences/enroll", enrollment).status()).isEqualTo(201);
    assertThat(tenant.api().post("/api/v1/sequences/enroll", enrollment).status())
        .as("enrolling again while active answers the same enrollment")
        .isEqualTo(201);
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> tenant.api().post("/api/v1/sequences/unenroll", enrollment).status() == 200);

    ApiResponse again = tenant.api().post("/api/v1/sequences/enroll", enrollment);

    assertThat(again.status()).isEqualTo(409);
    assertThat(again.rawBody())
        .contains("settings.reenroll: never")
        .contains("Nothing was enrolled");
    JsonNode listed = tenant.api().get("/api/v1/sequences/" + sequenceId + "/enrollments").json();
    assertThat(listed.at("/enrollments/0/status").asString()).isEqualTo("unenrolled");
    assertThat(runsOf(tenant.id(), sequenceId)).isEqualTo(1);
  }

  /**
   * A rule set on a flow that had runs counts them: a contact that had a run before never was set
   * starts none; the default is always, which starts one for every trigger.
   */
  @Test
  void aRuleSetLaterCountsTheRunsBeforeItAndTheDefaultIsAlways() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    String flow = activeAutomation(tenant.api(), waitingFlow(hook));
    assertThat(
            tenant
                .api()
                .get("/api/sequences/" + flow + "/canvas")
                .text("/canvas/settings/reenroll"))
        .isEqualTo("always");
    String ada = contact(tenant, "ada@example.com");
    fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    assertThat(runsOf(tenant.id(), flow)).isEqualTo(2);

    assertThat(
            tenant
                .api()
                .put(
                    "/api/sequences/" + flow + "/canvas",
                    withSettings(waitingFlow(hook), Map.of("reenroll", "never")))
                .status())
        .isEqualTo(200);

    ApiResponse held =
        anonymous()
            .post(
                "/api/webhooks/automation/" + tenant.id() + "/" + hook, Map.of("contact_id", ada));
    assertThat(held.text("/notStarted/reason")).isEqualTo("reenroll");
    assertThat(runsOf(tenant.id(), flow)).isEqualTo(2);
    // the runs before keep going: the rule holds back starts only
    assertThat(
            tenant
                .api()
                .get("/api/v1/automation-runs?sequence_id=" + flow)
                .at("/runs")
                .valueStream()
                .map(run -> run.get("status").asString()))
        .containsExactly("running", "running");
  }

  @Test
  void theRuleIsChecked() {
    TenantClient tenant = newTenant();
    String flow = activeAutomation(tenant.api(), waitingFlow(uniqueId("hook")));
    String hook = uniqueId("hook");
    ApiResponse noDays =
        tenant
            .api()
            .put(
                "/api/sequences/" + flow + "/canvas",
                withSettings(waitingFlow(hook), Map.of("reenroll", "after")));
    assertThat(noDays.status()).isEqualTo(400);
    assertThat(noDays.rawBody()).contains("settings.reenroll_after_days").contains("is required");
    ApiResponse daysWithNever =
        tenant
            .api()
            .put(
                "/api/sequences/" + flow + "/canvas",
                withSettings(
                    waitingFlow(hook), Map.of("reenroll", "never", "reenroll_after_days", 3)));
    assertThat(daysWithNever.status()).isEqualTo(400);
    ApiResponse sometimes =
        tenant
            .api()
            .put(
                "/api/sequences/" + flow + "/canvas",
                withSettings(waitingFlow(hook), Map.of("reenroll", "sometimes")));
    assertThat(sometimes.status()).isEqualTo(400);
    assertThat(sometimes.rawBody()).contains("must be always, never or after");
    ApiResponse pastALong =
        tenant
            .api()
            .put(
                "/api/sequences/" + flow + "/canvas",
                withSettings(
                    waitingFlow(hook),
                    Map.of(
                        "reenroll",
                        "after",
                        "reenroll_after_days",
                        new BigInteger("99999999999999999999"))));
    assertThat(pastALong.status()).as(pastALong.toString()).isEqualTo(400);
    assertThat(pastALong.text("/errors/0/field")).isEqualTo("settings.reenroll_after_days");
    assertThat(pastALong.text("/errors/0/message")).contains("from 1 to 3650");
    assertThat(
            tenant
                .api()
                .get("/api/sequences/" + flow + "/canvas")
                .text("/canvas/settings/reenroll"))
        .as("the refused saves changed nothing")
        .isEqualTo("always");
  }

  /**
   * A webhook's contact_id names the record its runs are counted by; one too long for that index is
   * refused with a 400 that says so, and starts nothing.
   */
  @Test
  void aTriggerWhoseContactIdIsTooLongToNameARecordIsRefusedAndStartsNothing() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(), withSettings(waitingFlow(hook), Map.of("reenroll", "never")));
    String url = "/api/webhooks/automation/" + tenant.id() + "/" + hook;

    ApiResponse top = anonymous().post(url, Map.of("contact_id", "c".repeat(6_000)));
    ApiResponse inData =
        anonymous().post(url, Map.of("data", Map.of("opportunity_id", "o".repeat(256))));

    assertThat(top.status()).as(top.toString()).isEqualTo(400);
    assertThat(top.contentType()).startsWith("application/problem+json");
    assertThat(top.text("/errors/0/field")).isEqualTo("contact_id");
    assertThat(top.text("/errors/0/message")).contains("at most 255 characters");
    assertThat(inData.status()).as(inData.toString()).isEqualTo(400);
    assertThat(inData.text("/errors/0/field")).isEqualTo("data.opportunity_id");
    assertThat(runsOf(tenant.id(), flow)).isZero();
    assertThat(fire(anonymous(), tenant.id(), hook, Map.of("contact_id", "c".repeat(255))))
        .as("an id of 255 characters is taken")
        .isNotBlank();
    assertThat(runsOf(tenant.id(), flow)).isEqualTo(1);
  }
}
