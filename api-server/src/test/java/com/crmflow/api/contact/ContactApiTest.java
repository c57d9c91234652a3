package com.crmflow.api.contact;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ContactApiTest extends ApiTest {

  private static Map<String, Object> everyField(String email) {
    Map<String, Object> body = new HashMap<>();
    body.put("email", email);
    body.put("first_name", "Ada");
    body.put("last_name", "Lovelace");
    body.put("phone", "+44 20 1234 5678");
    body.put("mobile_phone", "+44 7700 900123");
    body.put("company", "Analytical Engines");
    body.put("title", "Engineer");
    body.put("department", "R&D");
    body.put("industry", "Computing");
    body.put("lead_source", "referral");
    body.put("lead_status", "qualified");
    body.put("lifecycle_stage", "lead");
    body.put("address_city", "London");
    body.put("address_state", "Greater London");
    body.put("address_country", "GB");
    body.put("timezone", "Europe/London");
    body.put("preferred_contact_method", "email");
    body.put("do_not_call", true);
    body.put("do_not_email", false);
    body.put("do_not_sms", true);
    return body;
  }

  @Test
  void createStoresEveryFieldAndAnswers201WithTheContact() {
    var tenant = newTenant();
    ApiResponse created = tenant.api().post("/api/v1/contacts", everyField("Ada@Example.com "));

    assertThat(created.status()).isEqualTo(201);
    JsonNode contact = created.at("/contact");
    assertThat(contact.get("id").asString()).isNotBlank();
    assertThat(contact.get("email").asString()).isEqualTo("ada@example.com");
    assertThat(contact.get("first_name").asString()).isEqualTo("Ada");
    assertThat(contact.get("company").asString()).isEqualTo("Analytical Engines");
    assertThat(contact.get("custom_fields").isObject()).isTrue();
    assertThat(created.at("/account").isNull()).isTrue();
    assertThat(created.at("/opportunity").isNull()).isTrue();

    ApiResponse read = tenant.api().get("/api/v1/contacts/" + contact.get("id").asString());
    JsonNode stored = read.at("/contact");
    everyField("ada@example.com")
        .forEach(
            (field, value) ->
                assertThat(stored.get(field).asString()).as(field).isEqualTo(value.toString()));
  }

  @Test
  void postWithAnExistingEmailUpdatesThatContactAndAnswers201AsTheSpecSays() {
    var tenant = newTenant();
    ApiResponse first =
        tenant.api().post("/api/v1/contacts", Map.of("email", "grace@example.com", "title", "Cdr"));
    ApiResponse second =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email", "  GRACE@example.com", "first_name", "Grace", "do_not_email", true));

    assertThat(first.status()).isEqualTo(201);
    assertThat(second.status()).isEqualTo(201);
    assertThat(second.text("/contact/id")).isEqualTo(first.text("/contact/id"));
    ApiResponse read = tenant.api().get("/api/v1/contacts/" + first.text("/contact/id"));
    assertThat(read.text("/contact/first_name")).isEqualTo("Grace");
    assertThat(read.text("/contact/title")).isEqualTo("Cdr"); // untouched
    assertThat(read.at("/contact/do_not_email").asBoolean()).isTrue();
    assertThat(tenant.api().get("/api/v1/contacts").at("/total").asInt()).isEqualTo(1);

    List<JsonNode> updated = events(tenant.id(), "contact.updated");
    assertThat(updated).hasSize(1);
    assertThat(updated.get(0).at("/data/changed_fields").toString())
        .isEqualTo("[\"first_name\",\"do_not_email\"]");
  }

  @Test
  void createEmitsContactCreatedWithTheSpecEnvelope() {
    var tenant = newTenant();
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email", "linus@example.com",
                    "first_name", "Linus",
                    "last_name", "Torvalds",
                    "company", "Kernel"));

    List<JsonNode> events = events(tenant.id());
    assertThat(events).hasSize(1);
    JsonNode event = events.get(0);
    assertThat(event.get("event").asString()).isEqualTo("contact.created");
    assertThat(event.get("tenant_id").asString()).isEqualTo(tenant.id().toString());
    assertThat(event.get("timestamp").asString()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    assertThat(event.at("/data/contact_id").asString()).isEqualTo(created.text("/contact/id"));
    assertThat(event.at("/data/email").asString()).isEqualTo("linus@example.com");
    assertThat(event.at("/data/name").asString()).isEqualTo("Linus Torvalds");
    assertThat(event.at("/data/company").asString()).isEqualTo("Kernel");
  }

  @Test
  void createAccountReusesTheTenantsAccountOfThatName() {
    var tenant = newTenant();
    ApiResponse first =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "a@acme.example", "company", "Acme", "create_account", true));
    ApiResponse second =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "b@acme.example", "company", "ACME", "create_account", true));

    assertThat(first.text("/account/name")).isEqualTo("Acme");
    assertThat(second.text("/account/id")).isEqualTo(first.text("/account/id"));
    assertThat(second.text("/contact/account_id")).isEqualTo(first.text("/account/id"));
    assertThat(tenant.api().get("/api/v1/accounts").at("/total").asInt()).isEqualTo(1);

    ApiResponse noCompany =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "c@x.example", "create_account", true));
    assertThat(noCompany.status()).isEqualTo(400);
    assertThat(noCompany.text("/errors/0/field")).isEqualTo("company");
  }

  @Test
  void createOpportunityLinksContactAndAccount() {
    var tenant = newTenant();
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email",
                    "buyer@acme.example",
                    "company",
                    "Acme",
                    "create_account",
                    true,
                    "create_opportunity",
                    Map.of(
                        "name", "Acme pilot",
                        "value", 12500.5,
                        "stage", "qualified",
                        "close_date", "2027-01-31",
                        "probability", 40,
                        "description", "Pilot for 10 seats")));

    assertThat(created.status()).isEqualTo(201);
    assertThat(created.text("/opportunity/name")).isEqualTo("Acme pilot");
    assertThat(created.text("/opportunity/stage")).isEqualTo("qualified");
    assertThat(created.at("/opportunity/value").decimalValue()).isEqualByComparingTo("12500.5");
    assertThat(created.text("/opportunity/contact_id")).isEqualTo(created.text("/contact/id"));
    assertThat(created.text("/opportunity/account_id")).isEqualTo(created.text("/account/id"));
    assertThat(events(tenant.id()).stream().map(e -> e.get("event").asString()))
        .containsExactly("contact.created", "opportunity.created");

    ApiResponse invalid =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "x@acme.example", "create_opportunity", Map.of("value", "lots")));
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.at("/errors").toString())
        .contains("create_opportunity.name")
        .contains("create_opportunity.value");
  }

  @Test
  void patchChangesOnlyTheGivenFields() {
    var tenant = newTenant();
    ApiResponse created = tenant.api().post("/api/v1/contacts", everyField("p@example.com"));
    String id = created.text("/contact/id");

    ApiResponse patched =
        tenant.api().patch("/api/v1/contacts/" + id, Map.of("title", "CTO", "do_not_call", false));
    assertThat(patched.status()).isEqualTo(200);
    assertThat(patched.text("/contact/title")).isEqualTo("CTO");
    assertThat(patched.text("/contact/first_name")).isEqualTo("Ada");
    assertThat(patched.at("/contact/do_not_call").asBoolean()).isFalse();
    assertThat(patched.at("/contact/do_not_sms").asBoolean()).isTrue();

    Map<String, Object> clear = new HashMap<>();
    clear.put("phone", null);
    ApiResponse cleared = tenant.api().patch("/api/v1/contacts/" + id, clear);
    assertThat(cleared.at("/contact/phone").isNull()).isTrue();

    ApiResponse noop = tenant.api().patch("/api/v1/contacts/" + id, Map.of("title", "CTO"));
    assertThat(noop.status()).isEqualTo(200);
    assertThat(events(tenant.id(), "contact.updated")).hasSize(2); // no event for no change
  }

  @Test
  void patchToAnotherContactsEmailIsAConflict() {
    var tenant = newTenant();
    tenant.api().post("/api/v1/contacts", Map.of("email", "taken@example.com"));
    String id =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "mine@example.com"))
            .text("/contact/id");

    ApiResponse conflict =
        tenant.api().patch("/api/v1/contacts/" + id, Map.of("email", "TAKEN@example.com"));
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(tenant.api().get("/api/v1/contacts/" + id).text("/contact/email"))
        .isEqualTo("mine@example.com");
  }

  @Test
  void invalidValuesAre400NamingEachFieldAndStoreNothing() {
    var tenant = newTenant();
    Map<String, Object> body = new HashMap<>();
    body.put("email", "not-an-email");
    body.put("timezone", "Mars/Olympus");
    body.put("first_name", "x".repeat(256));
    body.put("do_not_sms", "no");
    body.put("account_id", "nope");
    ApiResponse response = tenant.api().post("/api/v1/contacts", body);

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.at("/errors").findValues("field").stream().map(JsonNode::asString))
        .containsExactlyInAnyOrder("email", "timezone", "first_name", "do_not_sms", "account_id");
    assertThat(
            tenant
                .api()
                .post("/api/v1/contacts", Map.of("first_name", "No email"))
                .text("/errors/0/field"))
        .isEqualTo("email");
    assertThat(events(tenant.id())).isEmpty();
    assertThat(tenant.api().get("/api/v1/contacts").at("/total").asInt()).isZero();
  }

  @Test
  void unknownAccountIdIs422() {
    var tenant = newTenant();
    ApiResponse response =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email",
                    "a@example.com",
                    "account_id",
                    "00000000-0000-0000-0000-000000000009"));
    assertThat(response.status()).isEqualTo(422);
    assertThat(response.text("/errors/0/field")).isEqualTo("account_id");
  }

  @Test
  void searchMatchesNamesEmailAndCompanyPartiallyAndCaseInsensitively() {
    var tenant = newTenant();
    tenant
        .api()
        .post(
            "/api/v1/contacts",
            Map.of(
                "email",
                "ada@engines.example",
                "first_name",
                "Ada",
                "last_name",
                "Lovelace",
                "company",
                "Engines Ltd"));
    tenant
        .api()
        .post(
            "/api/v1/contacts",
            Map.of(
                "email",
                "grace@navy.example",
                "first_name",
                "Grace",
                "last_name",
                "Hopper",
                "company",
                "US Navy"));
    tenant
        .api()
        .post(
            "/api/v1/contacts",
            Map.of("email", "alan@bletchley.example", "first_name", "Alan", "last_name", "Turing"));

    assertThat(emails(tenant.api().get("/api/v1/contacts?search=LOVE")))
        .containsExactly("ada@engines.example");
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=grace%20hop")))
        .containsExactly("grace@navy.example");
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=bletchley")))
        .containsExactly("alan@bletchley.example");
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=navy")))
        .containsExactly("grace@navy.example");
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=a"))).hasSize(3);
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=100%25"))).isEmpty(); // literal %
    assertThat(emails(tenant.api().get("/api/v1/contacts?email=GRACE@navy.example")))
        .containsExactly("grace@navy.example");
    assertThat(emails(tenant.api().get("/api/v1/contacts?email=grace@navy"))).isEmpty();
  }

  @Test
  void listIsNewestFirstWithLimitOffsetAndTotal() {
    var tenant = newTenant();
    for (int i = 0; i < 5; i++) {
      tenant.api().post("/api/v1/contacts", Map.of("email", "c" + i + "@example.com"));
    }
    ApiResponse page = tenant.api().get("/api/v1/contacts?limit=2&offset=1");
    assertThat(page.at("/total").asInt()).isEqualTo(5);
    assertThat(page.at("/limit").asInt()).isEqualTo(2);
    assertThat(page.at("/offset").asInt()).isEqualTo(1);
    assertThat(emails(page)).containsExactly("c3@example.com", "c2@example.com");
    JsonNode first = tenant.api().get("/api/v1/contacts").at("/contacts/0");
    for (String field :
        List.of(
            "id",
            "email",
            "first_name",
            "last_name",
            "company",
            "title",
            "phone",
            "lead_status",
            "custom_fields",
            "created_at")) {
      assertThat(first.has(field)).as(field).isTrue();
    }
    assertThat(tenant.api().get("/api/v1/contacts").at("/limit").asInt()).isEqualTo(50);
  }

  @Test
  void concurrentPostsOfOneNewEmailCreateExactlyOneContact() throws Exception {
    var tenant = newTenant();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Callable<ApiResponse>> calls = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        int n = i;
        calls.add(
            () ->
                tenant
                    .api()
                    .post(
                        "/api/v1/contacts", Map.of("email", "race@example.com", "title", "t" + n)));
      }
      List<Integer> statuses = new ArrayList<>();
      for (Future<ApiResponse> f : pool.invokeAll(calls)) {
        statuses.add(f.get().status());
      }
      assertThat(statuses).containsOnly(201);
    } finally {
      pool.shutdown();
    }
    assertThat(
            jdbc.sql("select count(*) from contact where tenant_id = :t")
                .param("t", tenant.id())
                .query(Integer.class)
                .single())
        .isEqualTo(1);
    assertThat(events(tenant.id(), "contact.created")).hasSize(1);
  }

  private static List<String> emails(ApiResponse list) {
    assertThat(list.status()).as(list.toString()).isEqualTo(200);
    return list.at("/contacts").valueStream().map(c -> c.get("email").asString()).toList();
  }
}
