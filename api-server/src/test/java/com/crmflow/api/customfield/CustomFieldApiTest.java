package com.crmflow.api.customfield;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CustomFieldApiTest extends ApiTest {

  private static ApiResponse define(
      ApiClient api, String objectType, String label, String type, Object... extra) {
    Map<String, Object> body = new HashMap<>();
    body.put("object_type", objectType);
    body.put("field_label", label);
    body.put("field_type", type);
    for (int i = 0; i < extra.length; i += 2) {
      body.put((String) extra[i], extra[i + 1]);
    }
    return api.post("/api/v1/custom-fields", body);
  }

  @Test
  void everyFieldTypeCanBeDefinedAndListed() {
    var tenant = newTenant();
    for (String type : CustomFieldTypes.FIELD_TYPES) {
      Object[] options =
          CustomFieldTypes.WITH_OPTIONS.contains(type)
              ? new Object[] {"options", List.of("a", "b")}
              : new Object[0];
      ApiResponse created = define(tenant.api(), "contact", "My " + type, type, options);
      assertThat(created.status()).as(created.toString()).isEqualTo(201);
      assertThat(created.text("/field/field_type")).isEqualTo(type);
      assertThat(created.text("/field/field_key")).isEqualTo("my_" + type);
      if (options.length == 0) {
        assertThat(created.at("/field/options").isNull()).isTrue();
      } else {
        assertThat(created.at("/field/options").toString()).isEqualTo("[\"a\",\"b\"]");
      }
    }
    define(tenant.api(), "account", "Tier", "text");

    ApiResponse all = tenant.api().get("/api/v1/custom-fields");
    assertThat(all.at("/fields").size()).isEqualTo(12);
    ApiResponse accounts = tenant.api().get("/api/v1/custom-fields?object_type=account");
    assertThat(accounts.at("/fields").size()).isEqualTo(1);
    JsonNode field = accounts.at("/fields/0");
    for (String name :
        List.of(
            "id",
            "object_type",
            "field_key",
            "field_label",
            "field_type",
            "options",
            "is_required",
            "section",
            "description")) {
      assertThat(field.has(name)).as(name).isTrue();
    }
    assertThat(tenant.api().get("/api/v1/custom-fields?object_type=planet").status())
        .isEqualTo(400);
  }

  @Test
  void fieldKeyIsGeneratedFromTheLabelAndSuffixedOnCollision() {
    var tenant = newTenant();
    assertThat(
            define(tenant.api(), "contact", "Deal Size (USD)", "currency").text("/field/field_key"))
        .isEqualTo("deal_size_usd");
    assertThat(define(tenant.api(), "contact", "deal size usd", "number").text("/field/field_key"))
        .isEqualTo("deal_size_usd_2");
    assertThat(define(tenant.api(), "contact", "Deal-Size USD!", "number").text("/field/field_key"))
        .isEqualTo("deal_size_usd_3");
    // the same label on another object type does not collide
    assertThat(
            define(tenant.api(), "opportunity", "Deal Size (USD)", "currency")
                .text("/field/field_key"))
        .isEqualTo("deal_size_usd");
    assertThat(define(tenant.api(), "contact", "2nd phone", "phone").text("/field/field_key"))
        .isEqualTo("field_2nd_phone");

    ApiResponse explicit =
        define(tenant.api(), "contact", "Whatever", "text", "field_key", "deal_size_usd");
    assertThat(explicit.status()).isEqualTo(409);
    ApiResponse badKey =
        define(tenant.api(), "contact", "Whatever", "text", "field_key", "Bad Key");
    assertThat(badKey.status()).isEqualTo(400);
    assertThat(badKey.text("/errors/0/field")).isEqualTo("field_key");
  }

  @Test
  void optionsAreRequiredForSelectsAndRefusedOtherwise() {
    var tenant = newTenant();
    ApiResponse missing = define(tenant.api(), "contact", "Plan", "dropdown");
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.text("/errors/0/field")).isEqualTo("options");
    ApiResponse refused = define(tenant.api(), "contact", "Note", "text", "options", List.of("x"));
    assertThat(refused.status()).isEqualTo(400);
    ApiResponse duplicate =
        define(tenant.api(), "contact", "Plan", "multi_select", "options", List.of("x", "x"));
    assertThat(duplicate.text("/errors/0/field")).isEqualTo("options[1]");
    ApiResponse missingLabel =
        tenant
            .api()
            .post("/api/v1/custom-fields", Map.of("object_type", "contact", "field_type", "text"));
    assertThat(missingLabel.text("/errors/0/field")).isEqualTo("field_label");
    ApiResponse empty = tenant.api().post("/api/v1/custom-fields", Map.of());
    assertThat(empty.status()).as(empty.toString()).isEqualTo(400);
    assertThat(empty.at("/errors").valueStream().map(e -> e.get("field").asString()))
        .containsExactly("object_type", "field_label", "field_type");
    assertThat(tenant.api().get("/api/v1/custom-fields").at("/fields").size()).isZero();
  }

  @Test
  void fiftyPerObjectTypeEvenUnderConcurrentCreates() throws Exception {
    var tenant = newTenant();
    for (int i = 0; i < 45; i++) {
      assertThat(define(tenant.api(), "contact", "Field " + i, "text").status()).isEqualTo(201);
    }
    ExecutorService pool = Executors.newFixedThreadPool(10);
    try {
      List<Future<ApiResponse>> results = new java.util.ArrayList<>();
      for (int i = 0; i < 10; i++) {
        int n = i;
        results.add(pool.submit(() -> define(tenant.api(), "contact", "Racing " + n, "text")));
      }
      int created = 0;
      int refused = 0;
      for (Future<ApiResponse> result : results) {
        int status = result.get().status();
        if (status == 201) {
          created++;
        } else if (status == 422) {
          refused++;
        }
      }
      assertThat(created).isEqualTo(5);
      assertThat(refused).isEqualTo(5);
    } finally {
      pool.shutdown();
    }
    assertThat(tenant.api().get("/api/v1/custom-fields?object_type=contact").at("/fields").size())
        .isEqualTo(50);
    assertThat(define(tenant.api(), "account", "Still fine", "text").status()).isEqualTo(201);
  }

  @Test
  void valuesAreValidatedAgainstTheirDefinitions() {
    var tenant = newTenant();
    define(tenant.api(), "contact", "Score", "number");
    define(tenant.api(), "contact", "Budget", "currency");
    define(tenant.api(), "contact", "Renewal", "date");
    define(tenant.api(), "contact", "Plan", "dropdown", "options", List.of("free", "pro"));
    define(tenant.api(), "contact", "Channels", "multi_select", "options", List.of("email", "sms"));
    define(tenant.api(), "contact", "Vip", "checkbox");
    define(tenant.api(), "contact", "Assistant email", "email");
    define(tenant.api(), "contact", "Hotline", "phone");
    define(tenant.api(), "contact", "Website", "url");
    define(tenant.api(), "contact", "Bio", "long_text");

    Map<String, Object> bad = new HashMap<>();
    bad.put("score", "ten");
    bad.put("budget", "1k");
    bad.put("renewal", "31.01.2027");
    bad.put("plan", "enterprise");
    bad.put("channels", List.of("email", "fax"));
    bad.put("vip", "yes");
    bad.put("assistant_email", "nobody");
    bad.put("hotline", "call me");
    bad.put("website", "ftp://x.example");
    bad.put("unknown_key", 1);
    ApiResponse rejected =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "v@example.com", "custom_fields", bad));
    assertThat(rejected.status()).isEqualTo(400);
    assertThat(rejected.at("/errors").findValues("field").stream().map(JsonNode::asString))
        .containsExactlyInAnyOrder(
            "custom_fields.score",
            "custom_fields.budget",
            "custom_fields.renewal",
            "custom_fields.plan",
            "custom_fields.channels",
            "custom_fields.vip",
            "custom_fields.assistant_email",
            "custom_fields.hotline",
            "custom_fields.website",
            "custom_fields.unknown_key");
    ApiResponse signedYear =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email", "v@example.com", "custom_fields", Map.of("renewal", "+10000-01-31")));
    assertThat(signedYear.status()).as(signedYear.toString()).isEqualTo(400);
    assertThat(signedYear.text("/errors/0/field")).isEqualTo("custom_fields.renewal");

    Map<String, Object> good = new HashMap<>();
    good.put("score", 10);
    good.put("budget", 1999.99);
    good.put("renewal", "2027-01-31");
    good.put("plan", "pro");
    good.put("channels", List.of("email", "sms"));
    good.put("vip", true);
    good.put("assistant_email", "assist@example.com");
    good.put("hotline", "+49 30 1234567");
    good.put("website", "https://example.com/about");
    good.put("bio", "Long story");
    ApiResponse accepted =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "v@example.com", "custom_fields", good));
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(201);
    JsonNode stored =
        tenant
            .api()
            .get("/api/v1/contacts/" + accepted.text("/contact/id"))
            .at("/contact/custom_fields");
    assertThat(stored.get("score").asInt()).isEqualTo(10);
    assertThat(stored.get("plan").asString()).isEqualTo("pro");
    assertThat(stored.get("channels").toString()).isEqualTo("[\"email\",\"sms\"]");
    assertThat(stored.get("vip").asBoolean()).isTrue();
  }

  @Test
  void aNumberOrCurrencyValueBeyondADoublesRangeIsA400NamingTheField() {
    var tenant = newTenant();
    define(tenant.api(), "contact", "Score", "number");
    define(tenant.api(), "opportunity", "Budget", "currency");

    ApiResponse contact =
        tenant
            .api()
            .send(
                "POST",
                "/api/v1/contacts",
                "{\"email\": \"n@example.com\", \"custom_fields\": {\"score\": 1e400}}",
                "application/json");
    ApiResponse opportunity =
        tenant
            .api()
            .send(
                "POST",
                "/api/v1/opportunities",
                "{\"name\": \"Big\", \"custom_fields\": {\"budget\": -1e400}}",
                "application/json");

    assertThat(contact.status()).as(contact.toString()).isEqualTo(400);
    assertThat(contact.text("/errors/0/field")).isEqualTo("custom_fields.score");
    assertThat(opportunity.status()).as(opportunity.toString()).isEqualTo(400);
    assertThat(opportunity.text("/errors/0/field")).isEqualTo("custom_fields.budget");
    assertThat(tenant.api().get("/api/v1/contacts").at("/total").asInt()).isZero();
    assertThat(tenant.api().get("/api/v1/opportunities").at("/total").asInt()).isZero();
  }

  @Test
  void requiredCustomFieldsHoldForTheAccountAndOpportunityThatPostContactsCreates() {
    var tenant = newTenant();
    define(tenant.api(), "account", "Region", "text", "is_required", true);
    define(tenant.api(), "opportunity", "Source system", "text", "is_required", true);

    ApiResponse withAccount =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "a@example.com", "company", "Acme", "create_account", true));
    ApiResponse withOpportunity =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "o@example.com", "create_opportunity", Map.of("name", "Deal")));

    assertThat(withAccount.status()).as(withAccount.toString()).isEqualTo(400);
    assertThat(withAccount.text("/errors/0/field")).isEqualTo("create_account");
    assertThat(withAccount.text("/errors/0/message")).contains("region");
    assertThat(withOpportunity.status()).as(withOpportunity.toString()).isEqualTo(400);
    assertThat(withOpportunity.text("/errors/0/field"))
        .isEqualTo("create_opportunity.custom_fields.source_system");
    assertThat(withOpportunity.text("/errors/0/message")).isEqualTo("is required");
    assertThat(tenant.api().get("/api/v1/contacts").at("/total").asInt())
        .as("nothing was created")
        .isZero();
    assertThat(tenant.api().get("/api/v1/opportunities").at("/total").asInt()).isZero();

    // the opportunity's custom fields travel with it; an account that exists is only linked
    assertThat(
            tenant
                .api()
                .post(
                    "/api/v1/accounts",
                    Map.of("name", "Acme", "custom_fields", Map.of("region", "EU")))
                .status())
        .isEqualTo(201);
    ApiResponse accepted =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email",
                    "a@example.com",
                    "company",
                    "Acme",
                    "create_account",
                    true,
                    "create_opportunity",
                    Map.of("name", "Deal", "custom_fields", Map.of("source_system", "crm"))));
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(201);
    assertThat(accepted.text("/account/name")).isEqualTo("Acme");
    assertThat(
            tenant
                .api()
                .get("/api/v1/opportunities")
                .at("/opportunities/0/custom_fields/source_system")
                .asString())
        .isEqualTo("crm");
  }

  @Test
  void requiredFieldsAndPatchMerging() {
    var tenant = newTenant();
    define(tenant.api(), "contact", "Region", "text", "is_required", true);
    define(tenant.api(), "contact", "Tier", "text");

    ApiResponse missing = tenant.api().post("/api/v1/contacts", Map.of("email", "r@example.com"));
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.text("/errors/0/field")).isEqualTo("custom_fields.region");

    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "r@example.com", "custom_fields", Map.of("region", "EMEA")));
    String id = created.text("/contact/id");
    ApiResponse merged =
        tenant
            .api()
            .patch("/api/v1/contacts/" + id, Map.of("custom_fields", Map.of("tier", "gold")));
    assertThat(merged.at("/contact/custom_fields").propertyNames())
        .containsExactlyInAnyOrder("region", "tier");
    assertThat(merged.text("/contact/custom_fields/region")).isEqualTo("EMEA");
    assertThat(merged.text("/contact/custom_fields/tier")).isEqualTo("gold");

    Map<String, Object> removeTier = new HashMap<>();
    removeTier.put("tier", null);
    ApiResponse removed =
        tenant.api().patch("/api/v1/contacts/" + id, Map.of("custom_fields", removeTier));
    assertThat(removed.at("/contact/custom_fields").toString()).isEqualTo("{\"region\":\"EMEA\"}");

    Map<String, Object> removeRegion = new HashMap<>();
    removeRegion.put("region", null);
    ApiResponse refused =
        tenant.api().patch("/api/v1/contacts/" + id, Map.of("custom_fields", removeRegion));
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.text("/errors/0/field")).isEqualTo("custom_fields.region");
  }

  @Test
  void accountAndOpportunityCustomFieldsAreValidatedToo() {
    var tenant = newTenant();
    define(tenant.api(), "account", "Employees", "number");
    define(
        tenant.api(),
        "opportunity",
        "Competitor",
        "dropdown",
        "options",
        List.of("HubSpot", "n8n"));

    ApiResponse account =
        tenant
            .api()
            .post(
                "/api/v1/accounts",
                Map.of("name", "Initech", "custom_fields", Map.of("employees", 250)));
    assertThat(account.status()).isEqualTo(201);
    ApiResponse badAccount =
        tenant
            .api()
            .patch(
                "/api/v1/accounts/" + account.text("/account/id"),
                Map.of("custom_fields", Map.of("employees", "many")));
    assertThat(badAccount.status()).isEqualTo(400);
    assertThat(badAccount.text("/errors/0/field")).isEqualTo("custom_fields.employees");

    ApiResponse opportunity =
        tenant
            .api()
            .post(
                "/api/v1/opportunities",
                Map.of("name", "Deal", "custom_fields", Map.of("competitor", "Zapier")));
    assertThat(opportunity.status()).isEqualTo(400);
    assertThat(opportunity.text("/errors/0/field")).isEqualTo("custom_fields.competitor");
    ApiResponse good =
        tenant
            .api()
            .post(
                "/api/v1/opportunities",
                Map.of("name", "Deal", "custom_fields", Map.of("competitor", "n8n")));
    assertThat(good.text("/opportunity/custom_fields/competitor")).isEqualTo("n8n");
  }
}
