package com.crmflow.api.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class GenerateApiTest extends ApiTest {

  private static List<String> types(ApiResponse generated) {
    return generated.at("/nodes").valueStream().map(n -> n.get("type").asString()).toList();
  }

  private static JsonNode nodeOfType(ApiResponse generated, String type) {
    return generated
        .at("/nodes")
        .valueStream()
        .filter(n -> n.get("type").asString().equals(type))
        .findFirst()
        .orElseThrow();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "When a webhook arrives, wait 2 days, send an email with subject \"Checking in\", if the contact replied send an email with subject \"Thanks!\" else send an email with subject \"Last try\"",
        "Every Monday at 9:00 Europe/Berlin call https://api.example.com/report and post the result to #sales",
        "When a contact is created with lead_status qualified, create an opportunity",
        "When a webhook is received, post to https://hooks.example.com/in then notify #ops",
        "Every day at 7:30 America/New_York fetch https://status.example.com/health",
        "Every 15 minutes call https://example.com/poll",
        "On the 1st of every month at 08:00 UTC call https://billing.example.com/run",
        "Every weekday at 6pm Europe/London post \"Time to log your calls\" to #team",
        "When an opportunity changes stage, notify #deals and create a task to review the deal",
        "When a human takes over a conversation, post \"Human on it\" to #support",
        "When a meeting is booked, wait 1 hour, send a reminder email",
        "When a contact is updated, set lead_status to engaged",
        "When a webhook arrives, call https://crm.example.com/lookup, filter the results where status is active, then post the result to #leads",
        "When a webhook arrives, fetch https://a.example.com/x and merge the data, then call https://b.example.com/y",
        "When a call ends, add a note \"Call finished\"",
        "When a deal is created, wait 3 days then if the stage is qualified send an email with subject \"Next steps\" otherwise create a task to qualify the deal",
        "Every Tuesday and Thursday at 10:00 Asia/Tokyo call https://jp.example.com/sync then wait 2 hours then post the result to #jp",
        "When a webhook arrives, call https://api.example.com/check, if the request succeeded notify #ok else notify #alerts"
      })
  void automationPromptsGiveFlowsThatValidate(String prompt) {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Generated");
    ApiResponse generated =
        tenant.api().post("/api/sequences/" + seq + "/generate", Map.of("prompt", prompt));
    assertThat(generated.status()).as(generated.toString()).isEqualTo(200);
    assertThat(generated.at("/nodes").size()).isGreaterThanOrEqualTo(2);
    assertThat(generated.at("/edges").size()).isGreaterThanOrEqualTo(1);
    // laid out left to right
    List<Double> xs =
        generated.at("/nodes").valueStream().map(n -> n.at("/position/x").asDouble()).toList();
    assertThat(xs.get(xs.size() - 1)).isGreaterThan(xs.get(0));
    // it replaced the canvas and the flow is complete enough to activate
    assertThat(tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/nodes").size())
        .isEqualTo(generated.at("/nodes").size());
    ApiResponse active = tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
  }

  @Test
  void webhookDelayEmailAndABranchingCondition() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "G");
    ApiResponse g =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/generate",
                Map.of(
                    "prompt",
                    "When a webhook arrives, wait 2 days, send an email with subject \"Checking in\", if the contact replied send an email with subject \"Thanks!\" else send an email with subject \"Last try\""));
    assertThat(types(g))
        .containsExactly("webhook_trigger", "delay", "email", "condition", "email", "email");
    assertThat(nodeOfType(g, "delay").at("/data/config/delayDays").asInt()).isEqualTo(2);
    assertThat(nodeOfType(g, "email").at("/data/config/subject").asString())
        .isEqualTo("Checking in");
    List<String> labels =
        g.at("/edges")
            .valueStream()
            .filter(e -> e.get("type").asString().equals("conditional"))
            .map(e -> e.get("label").asString())
            .toList();
    assertThat(labels).containsExactlyInAnyOrder("true", "false");
    assertThat(nodeOfType(g, "webhook_trigger").at("/data/config/webhookPath").asString())
        .startsWith("/api/webhooks/automation/" + tenant.id());
  }

  @Test
  void scheduleCallAndChat() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "G");
    ApiResponse g =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/generate",
                Map.of(
                    "prompt",
                    "Every Monday at 9:00 Europe/Berlin call https://api.example.com/report and post the result to #sales"));
    assertThat(types(g)).containsExactly("schedule_trigger", "http_request", "chat_message");
    JsonNode schedule = nodeOfType(g, "schedule_trigger").at("/data/config");
    assertThat(schedule.get("scheduleType").asString()).isEqualTo("weekly");
    assertThat(schedule.get("daysOfWeek").toString()).isEqualTo("[1]");
    assertThat(schedule.get("time").asString()).isEqualTo("09:00");
    assertThat(schedule.get("timezone").asString()).isEqualTo("Europe/Berlin");
    assertThat(nodeOfType(g, "http_request").at("/data/config/url").asString())
        .isEqualTo("https://api.example.com/report");
    assertThat(nodeOfType(g, "chat_message").at("/data/config/channel").asString())
        .isEqualTo("#sales");
    assertThat(nodeOfType(g, "chat_message").at("/data/config/messageTemplate").asString())
        .contains("{{http_request_1.body}}");
  }

  @Test
  void crmEventWithFilterCreatesAnOpportunity() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "G");
    ApiResponse g =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/generate",
                Map.of(
                    "prompt",
                    "When a contact is created with lead_status qualified, create an opportunity"));
    assertThat(types(g)).containsExactly("crm_event_trigger", "create_record");
    JsonNode trigger = nodeOfType(g, "crm_event_trigger").at("/data/config");
    assertThat(trigger.get("eventType").asString()).isEqualTo("contact.created");
    assertThat(trigger.get("filterField").asString()).isEqualTo("lead_status");
    assertThat(trigger.get("filterValue").asString()).isEqualTo("qualified");
    assertThat(nodeOfType(g, "create_record").at("/data/config/entityType").asString())
        .isEqualTo("opportunity");
  }

  @Test
  void aContactsFieldInADealFlowAndADealsAmountAreReadAsSuch() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "G");
    ApiResponse g =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/generate",
                Map.of(
                    "prompt",
                    "When a deal is created, if the deal amount is over 10,000 update the"
                        + " contact's lifecycle stage to lead, otherwise create a task to follow"
                        + " up"));
    assertThat(g.status()).as(g.toString()).isEqualTo(200);
    assertThat(g.header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(types(g))
        .containsExactly("crm_event_trigger", "condition", "crm_update", "create_record");
    JsonNode condition = nodeOfType(g, "condition").at("/data/config");
    assertThat(condition.get("field").asString()).isEqualTo("{{trigger.value}}");
    assertThat(condition.get("operator").asString()).isEqualTo("greater_than");
    assertThat(condition.get("value").asString()).isEqualTo("10000");
    JsonNode update = nodeOfType(g, "crm_update").at("/data/config");
    assertThat(update.get("entityType").asString()).isEqualTo("contact");
    assertThat(update.at("/fieldMappings/lifecycle_stage").asString()).isEqualTo("lead");
    // the contact of the deal (crm_update's default), not the deal itself
    assertThat(update.has("recordId")).isFalse();
    String conditionId = nodeOfType(g, "condition").get("id").asString();
    String otherwise =
        g.at("/edges")
            .valueStream()
            .filter(e -> e.get("source").asString().equals(conditionId))
            .filter(e -> "false".equals(e.get("label").asString()))
            .map(e -> e.get("target").asString())
            .findFirst()
            .orElseThrow();
    assertThat(otherwise).isEqualTo(nodeOfType(g, "create_record").get("id").asString());
    // what was answered is what was stored
    assertThat(
            tenant
                .api()
                .get("/api/sequences/" + seq + "/canvas")
                .at("/canvas/nodes")
                .valueStream()
                .filter(n -> n.get("type").asString().equals("crm_update"))
                .map(n -> n.at("/data/config/entityType").asString())
                .toList())
        .containsExactly("contact");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "When a contact is created, if the amount is over 10000 notify #sales",
        "Quand un contact est créé, si le montant est supérieur à 10000 prévenir #ventes",
        "When a webhook arrives, set the status to done"
      })
  void aClauseThatNamesNoClearRecordOrFieldIsAQuestion(String prompt) {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "G");
    ApiResponse g =
        tenant.api().post("/api/sequences/" + seq + "/generate", Map.of("prompt", prompt));
    assertThat(g.status()).as(g.toString()).isEqualTo(422);
    assertThat(g.header("Content-Type")).startsWith("application/problem+json");
    assertThat(g.header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(g.text("/detail")).contains("which record or field");
    assertThat(g.text("/errors/0/field")).isEqualTo("prompt");
    // the clause as read, and the question it leaves open
    assertThat(g.text("/errors/0/message"))
        .matches(
            "\"(if the amount is greater than 10000|if the amount is over 10000"
                + "|set the status to done)\": .*")
        .containsAnyOf("which deal?", "which record's \"status\"?");
    // nothing was stored
    assertThat(tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/version").asInt())
        .isZero();
  }

  @Test
  void aSequenceGetsNoTrigger() {
    var tenant = newTenant();
    String seq = SequenceSupport.sequence(tenant.api(), "Drip");
    ApiResponse g =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/generate",
                Map.of(
                    "prompt",
                    "Send a welcome email, wait 3 days, send a follow-up email, wait 1 week, send a last email"));
    assertThat(types(g)).containsExactly("email", "delay", "email", "delay", "email");
    assertThat(tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active")).status())
        .isEqualTo(200);
  }

  @Test
  void aPromptWithNoFlowInItIs422AndSavesNothing() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "G");
    String base = "/api/sequences/" + seq + "/generate";
    ApiResponse nonsense =
        tenant.api().post(base, Map.of("prompt", "the quick brown fox jumps over the lazy dog"));
    assertThat(nonsense.status()).isEqualTo(422);
    assertThat(tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/version").asInt())
        .isZero();
  }

  @Test
  void generationIsRateLimitedPerTenant() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "G");
    int ok = 0;
    ApiResponse last = null;
    for (int i = 0; i < 11; i++) {
      last =
          tenant
              .api()
              .post(
                  "/api/sequences/" + seq + "/generate",
                  Map.of("prompt", "When a webhook arrives, wait 1 day"));
      if (last.status() == 200) {
        ok++;
      }
    }
    assertThat(ok).isEqualTo(10);
    assertThat(last.status()).isEqualTo(429);
    assertThat(Integer.parseInt(last.header("Retry-After"))).isPositive();
    // another tenant still generates
    var other = newTenant();
    String theirs = SequenceSupport.automation(other.api(), "G");
    assertThat(
            other
                .api()
                .post(
                    "/api/sequences/" + theirs + "/generate",
                    Map.of("prompt", "When a webhook arrives, wait 1 day"))
                .status())
        .isEqualTo(200);
  }
}
