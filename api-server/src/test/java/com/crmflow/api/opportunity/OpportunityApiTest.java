package com.crmflow.api.opportunity;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class OpportunityApiTest extends ApiTest {

  @Test
  void createLinksExistingRecordsAndAnswersWithTheOpportunity() {
    var tenant = newTenant();
    String contactId =
        tenant.api().post("/api/v1/contacts", Map.of("email", "o@example.com")).text("/contact/id");
    String accountId =
        tenant.api().post("/api/v1/accounts", Map.of("name", "Globex")).text("/account/id");

    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/opportunities",
                Map.of(
                    "name", "Globex renewal",
                    "stage", "qualified",
                    "value", 5000,
                    "probability", 60,
                    "close_date", "2027-03-01",
                    "lead_source", "inbound",
                    "description", "Three-year renewal",
                    "next_step", "Send quote",
                    "contact_id", contactId,
                    "account_id", accountId));

    assertThat(created.status()).isEqualTo(201);
    JsonNode opportunity = created.at("/opportunity");
    assertThat(opportunity.get("name").asString()).isEqualTo("Globex renewal");
    assertThat(opportunity.get("close_date").asString()).isEqualTo("2027-03-01");
    assertThat(opportunity.get("contact_id").asString()).isEqualTo(contactId);
    assertThat(opportunity.get("account_id").asString()).isEqualTo(accountId);
    assertThat(opportunity.get("value").decimalValue()).isEqualByComparingTo("5000");

    List<JsonNode> events = events(tenant.id(), "opportunity.created");
    assertThat(events).hasSize(1);
    assertThat(events.get(0).at("/data/opportunity_id").asString())
        .isEqualTo(opportunity.get("id").asString());
  }

  @Test
  void nameIsRequiredAndLinksMustExistInTheTenant() {
    var tenant = newTenant();
    var other = newTenant();
    String foreignContact =
        other.api().post("/api/v1/contacts", Map.of("email", "f@example.com")).text("/contact/id");

    ApiResponse noName = tenant.api().post("/api/v1/opportunities", Map.of("stage", "new"));
    assertThat(noName.status()).isEqualTo(400);
    assertThat(noName.text("/errors/0/field")).isEqualTo("name");

    ApiResponse foreign =
        tenant
            .api()
            .post("/api/v1/opportunities", Map.of("name", "X", "contact_id", foreignContact));
    assertThat(foreign.status()).isEqualTo(422);
    assertThat(foreign.text("/errors/0/field")).isEqualTo("contact_id");

    ApiResponse badValues =
        tenant
            .api()
            .post(
                "/api/v1/opportunities",
                Map.of("name", "X", "probability", 120, "close_date", "soon"));
    assertThat(badValues.status()).isEqualTo(400);
    assertThat(badValues.at("/errors").findValues("field").stream().map(JsonNode::asString))
        .containsExactlyInAnyOrder("probability", "close_date");
    assertThat(tenant.api().get("/api/v1/opportunities").at("/total").asInt()).isZero();
  }

  @Test
  void aNumberBeyondADoublesRangeIsA400NamingItsFieldAndStoresNothing() {
    var tenant = newTenant();

    ApiResponse huge =
        tenant
            .api()
            .send(
                "POST",
                "/api/v1/opportunities",
                "{\"name\": \"Huge\", \"value\": 1e400}",
                "application/json");
    ApiResponse negative =
        tenant
            .api()
            .send(
                "POST",
                "/api/v1/opportunities",
                "{\"name\": \"Tiny\", \"probability\": -1e400}",
                "application/json");
    // an integer of 400 digits reads as a BigInteger, not as an infinite double
    ApiResponse longInteger =
        tenant
            .api()
            .send(
                "POST",
                "/api/v1/opportunities",
                "{\"name\": \"Long\", \"value\": 1" + "0".repeat(400) + "}",
                "application/json");

    assertThat(huge.status()).as(huge.toString()).isEqualTo(400);
    assertThat(huge.text("/errors/0/field")).isEqualTo("value");
    assertThat(huge.text("/errors/0/message")).contains("within the range of a double");
    assertThat(negative.status()).as(negative.toString()).isEqualTo(400);
    assertThat(negative.text("/errors/0/field")).isEqualTo("probability");
    assertThat(longInteger.status()).as(longInteger.toString()).isEqualTo(400);
    assertThat(longInteger.text("/errors/0/field")).isEqualTo("value");
    assertThat(tenant.api().get("/api/v1/opportunities").at("/total").asInt()).isZero();
  }

  /**
   * ISO-8601 reads signed years of up to nine digits, past what the database stores: a date and a
   * timestamp must have a year of four digits, and one that has not is a 400 that changes nothing.
   */
  @Test
  void aDateOrTimestampWhoseYearIsNotFourDigitsIsA400AndChangesNothing() {
    var tenant = newTenant();
    String id =
        tenant
            .api()
            .post("/api/v1/opportunities", Map.of("name", "Deal", "close_date", "2026-12-31"))
            .text("/opportunity/id");

    ApiResponse farClosed =
        tenant
            .api()
            .patch(
                "/api/v1/opportunities/" + id,
                Map.of("closed_at", "+300000-01-01T00:00:00Z", "name", "Renamed"));
    ApiResponse farClose =
        tenant.api().patch("/api/v1/opportunities/" + id, Map.of("close_date", "+5874898-01-01"));
    ApiResponse beforeYearOne =
        tenant.api().patch("/api/v1/opportunities/" + id, Map.of("close_date", "-5000-01-01"));

    assertThat(farClosed.status()).as(farClosed.toString()).isEqualTo(400);
    assertThat(farClosed.text("/errors/0/field")).isEqualTo("closed_at");
    assertThat(farClose.status()).as(farClose.toString()).isEqualTo(400);
    assertThat(farClose.text("/errors/0/field")).isEqualTo("close_date");
    assertThat(farClose.text("/errors/0/message")).contains("YYYY-MM-DD");
    assertThat(beforeYearOne.status()).as(beforeYearOne.toString()).isEqualTo(400);
    JsonNode stored = tenant.api().get("/api/v1/opportunities/" + id).json().get("opportunity");
    assertThat(stored.get("name").asString()).isEqualTo("Deal");
    assertThat(stored.get("close_date").asString()).isEqualTo("2026-12-31");
    assertThat(stored.get("closed_at").isNull()).isTrue();
  }

  /**
   * A number sent as text keeps at most 1,000 digits after its point, where the database keeps
   * 16,383: "1e-20000" is stored as 0, as the same number sent unquoted reads.
   */
  @Test
  void aNumberAsTextWithMoreDecimalsThanTheDatabaseKeepsIsStoredRounded() {
    var tenant = newTenant();

    ApiResponse tiny =
        tenant.api().post("/api/v1/opportunities", Map.of("name", "Tiny", "value", "1e-20000"));
    // the first digit a hundred million places past the point: 0 without working the places out
    ApiResponse far =
        tenant.api().post("/api/v1/opportunities", Map.of("name", "Far", "value", "1e-100000000"));
    // an exponent past an int is no number the field takes
    ApiResponse pastAnInt =
        tenant
            .api()
            .post("/api/v1/opportunities", Map.of("name", "Past", "value", "1e-3000000000"));
    // a control: a value of the column's two decimals is kept as sent
    ApiResponse small =
        tenant.api().post("/api/v1/opportunities", Map.of("name", "Small", "value", "12.5"));

    assertThat(tiny.status()).as(tiny.toString()).isEqualTo(201);
    assertThat(tiny.at("/opportunity/value").decimalValue()).isEqualByComparingTo("0");
    assertThat(far.status()).as(far.toString()).isEqualTo(201);
    assertThat(far.at("/opportunity/value").decimalValue()).isEqualByComparingTo("0");
    assertThat(pastAnInt.status()).as(pastAnInt.toString()).isEqualTo(400);
    assertThat(pastAnInt.text("/errors/0/field")).isEqualTo("value");
    assertThat(small.at("/opportunity/value").decimalValue()).isEqualByComparingTo("12.5");
    String id = tiny.text("/opportunity/id");
    assertThat(
            tenant.api().get("/api/v1/opportunities/" + id).at("/opportunity/value").decimalValue())
        .isEqualByComparingTo("0");
  }

  @Test
  void stageChangeEmitsUpdatedAndStageChangedWithOldAndNewStage() {
    var tenant = newTenant();
    String id =
        tenant
            .api()
            .post("/api/v1/opportunities", Map.of("name", "Deal", "stage", "qualified"))
            .text("/opportunity/id");

    ApiResponse won =
        tenant
            .api()
            .patch(
                "/api/v1/opportunities/" + id,
                Map.of("stage", "closed_won", "closed_at", "2026-11-20T10:00:00Z", "value", 900));
    assertThat(won.status()).isEqualTo(200);
    assertThat(won.text("/opportunity/stage")).isEqualTo("closed_won");
    assertThat(won.text("/opportunity/closed_at")).startsWith("2026-11-20T10:00");

    List<JsonNode> stageChanges = events(tenant.id(), "opportunity.stage_changed");
    assertThat(stageChanges).hasSize(1);
    assertThat(stageChanges.get(0).at("/data/old_stage").asString()).isEqualTo("qualified");
    assertThat(stageChanges.get(0).at("/data/new_stage").asString()).isEqualTo("closed_won");
    assertThat(events(tenant.id(), "opportunity.updated")).hasSize(1);

    ApiResponse lost =
        tenant.api().patch("/api/v1/opportunities/" + id, Map.of("lost_reason", "budget"));
    assertThat(lost.text("/opportunity/lost_reason")).isEqualTo("budget");
    assertThat(events(tenant.id(), "opportunity.stage_changed")).hasSize(1); // stage unchanged
    assertThat(events(tenant.id(), "opportunity.updated")).hasSize(2);

    tenant.api().patch("/api/v1/opportunities/" + id, Map.of("stage", "closed_won"));
    assertThat(events(tenant.id(), "opportunity.stage_changed")).hasSize(1);
  }

  @Test
  void listIsPaginatedWithTotal() {
    var tenant = newTenant();
    for (int i = 0; i < 3; i++) {
      tenant.api().post("/api/v1/opportunities", Map.of("name", "Deal " + i));
    }
    ApiResponse page = tenant.api().get("/api/v1/opportunities?limit=2");
    assertThat(page.at("/total").asInt()).isEqualTo(3);
    assertThat(page.at("/opportunities").size()).isEqualTo(2);
    assertThat(page.text("/opportunities/0/name")).isEqualTo("Deal 2");
    JsonNode first = page.at("/opportunities/0");
    for (String field :
        List.of(
            "id",
            "name",
            "stage",
            "value",
            "probability",
            "close_date",
            "lead_source",
            "next_step",
            "contact_id",
            "account_id",
            "custom_fields",
            "created_at")) {
      assertThat(first.has(field)).as(field).isTrue();
    }
    assertThat(tenant.api().get("/api/v1/opportunities?offset=2").at("/opportunities").size())
        .isEqualTo(1);
  }
}
