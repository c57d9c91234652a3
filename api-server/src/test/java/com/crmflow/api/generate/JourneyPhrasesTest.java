package com.crmflow.api.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The offline parser's phrases for the building blocks of a journey: each prompt gives a flow that
 * activates, with the block configured as the prompt says.
 */
class JourneyPhrasesTest extends ApiTest {

  /** Generates the prompt into a new automation, activates it, and answers the generated flow. */
  private ApiResponse generated(String prompt) {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Journey");
    ApiResponse flow =
        tenant.api().post("/api/sequences/" + seq + "/generate", Map.of("prompt", prompt));
    assertThat(flow.status()).as(flow.toString()).isEqualTo(200);
    assertThat(flow.header("X-Flow-Generator")).isEqualTo("offline");
    ApiResponse active = tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    return flow;
  }

  private static List<String> types(ApiResponse flow) {
    return flow.at("/nodes").valueStream().map(n -> n.get("type").asString()).toList();
  }

  private static JsonNode node(ApiResponse flow, String type) {
    return flow.at("/nodes")
        .valueStream()
        .filter(n -> n.get("type").asString().equals(type))
        .findFirst()
        .orElseThrow();
  }

  /** The label of the edge from the node of this type to the node of that type. */
  private static String label(ApiResponse flow, String fromType, String toType) {
    String from = node(flow, fromType).get("id").asString();
    return flow.at("/edges")
        .valueStream()
        .filter(e -> e.get("source").asString().equals(from))
        .filter(
            e ->
                flow.at("/nodes")
                    .valueStream()
                    .anyMatch(
                        n ->
                            n.get("id").asString().equals(e.get("target").asString())
                                && n.get("type").asString().equals(toType)))
        .map(e -> e.path("label").asString())
        .findFirst()
        .orElseThrow();
  }

  @Test
  void waitUntilTheyReplyAtMostThreeDays() {
    ApiResponse flow =
        generated(
            "When a contact is created, send a welcome email, wait until they reply, at most 3"
                + " days, then create a task to call them, otherwise send an email with subject"
                + " \"Still there?\"");
    assertThat(types(flow))
        .containsExactly("crm_event_trigger", "email", "wait_until", "create_record", "email");
    JsonNode wait = node(flow, "wait_until").at("/data/config");
    assertThat(wait.get("eventType").asString()).isEqualTo("conversation.message_received");
    assertThat(wait.get("timeoutDays").asInt()).isEqualTo(3);
    assertThat(label(flow, "wait_until", "create_record")).isEqualTo("met");
    assertThat(label(flow, "wait_until", "email")).isEqualTo("timeout");
  }

  @Test
  void waitUntilTheyBecomeACustomerForUpToTwoWeeks() {
    ApiResponse flow =
        generated(
            "When a contact is created, wait until they become a customer for up to 2 weeks, then"
                + " post \"New customer\" to #sales");
    JsonNode wait = node(flow, "wait_until").at("/data/config");
    assertThat(wait.get("eventType").asString()).isEqualTo("contact.updated");
    assertThat(wait.get("filterField").asString()).isEqualTo("lifecycle_stage");
    assertThat(wait.get("filterValue").asString()).isEqualTo("customer");
    assertThat(wait.get("timeoutDays").asInt()).isEqualTo(14);
    assertThat(label(flow, "wait_until", "chat_message")).isEqualTo("met");
  }

  @Test
  void sendBetweenNineAndFiveTheirTime() {
    ApiResponse flow =
        generated(
            "When a contact is created, wait 2 days, send a tips email, send between 9 and 5 their"
                + " time");
    assertThat(types(flow)).containsExactly("crm_event_trigger", "delay", "email");
    JsonNode window = node(flow, "email").at("/data/config/window");
    assertThat(window.get("from").asString()).isEqualTo("09:00");
    assertThat(window.get("to").asString()).isEqualTo("17:00");
    assertThat(window.get("timezone").asString()).isEqualTo("contact");
    assertThat(window.get("days").toString()).isEqualTo("[1,2,3,4,5,6,7]");

    ApiResponse weekdays =
        generated(
            "When a webhook arrives, send a reminder email between 8:30am and 6pm Europe/Berlin on"
                + " weekdays");
    JsonNode berlin = node(weekdays, "email").at("/data/config/window");
    assertThat(berlin.get("from").asString()).isEqualTo("08:30");
    assertThat(berlin.get("to").asString()).isEqualTo("18:00");
    assertThat(berlin.get("timezone").asString()).isEqualTo("Europe/Berlin");
    assertThat(berlin.get("days").toString()).isEqualTo("[1,2,3,4,5]");
  }

  @Test
  void onlyOncePerContact() {
    ApiResponse flow =
        generated(
            "When a webhook arrives, send a welcome email with subject \"Welcome\", only once per"
                + " contact");
    assertThat(types(flow)).containsExactly("webhook_trigger", "email");
    assertThat(flow.at("/settings/reenroll").asString()).isEqualTo("never");
    assertThat(node(flow, "email").at("/data/config/subject").asString()).isEqualTo("Welcome");

    ApiResponse monthly =
        generated(
            "When a contact is updated, at most once every 30 days per contact, create a task to"
                + " call them");
    assertThat(types(monthly)).containsExactly("crm_event_trigger", "create_record");
    assertThat(monthly.at("/settings/reenroll").asString()).isEqualTo("after");
    assertThat(monthly.at("/settings/reenroll_after_days").asInt()).isEqualTo(30);
  }

  /**
   * A re-enrollment gap past the 1 to 3650 days a flow takes (or past an int) is a 422 that says so
   * and saves nothing, as the same settings saved by hand are a 400.
   */
  @Test
  void aGapOfDaysOutsideWhatAFlowTakesIsRefusedAndSavesNothing() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Journey");
    for (String days : List.of("99999999999", "0", "3651")) {
      ApiResponse refused =
          tenant
              .api()
              .post(
                  "/api/sequences/" + seq + "/generate",
                  Map.of(
                      "prompt",
                      "When a webhook arrives, send an email with subject \"Hi\", only once every "
                          + days
                          + " days per contact"));
      assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
      assertThat(refused.text("/errors/0/field")).isEqualTo("prompt");
      assertThat(refused.text("/errors/0/message")).contains("after 1 to 3650 days");
    }
    assertThat(tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/nodes").size())
        .as("nothing saved")
        .isZero();
  }

  @Test
  void splitFiftyFifty() {
    ApiResponse flow =
        generated(
            "When a webhook arrives, split 50/50, send an email with subject \"Offer A\","
                + " otherwise send an email with subject \"Offer B\"");
    assertThat(types(flow)).containsExactly("webhook_trigger", "split", "email", "email");
    JsonNode branches = node(flow, "split").at("/data/config/branches");
    assertThat(branches.toString())
        .isEqualTo("[{\"label\":\"A\",\"percent\":50},{\"label\":\"B\",\"percent\":50}]");
    List<String> labels =
        flow.at("/edges")
            .valueStream()
            .filter(
                e -> e.get("source").asString().equals(node(flow, "split").get("id").asString()))
            .map(e -> e.get("label").asString())
            .toList();
    assertThat(labels).containsExactlyInAnyOrder("A", "B");
  }
}
