package com.crmflow.api.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ConversationApiTest extends ApiTest {

  private static final String JSON = "application/json";

  private String contact(ApiTest.TenantClient tenant, String email) {
    return tenant.api().post("/api/v1/contacts", Map.of("email", email)).text("/contact/id");
  }

  @Test
  void newConversationWithContentCreatesItsFirstMessage() {
    var tenant = newTenant();
    String contactId = contact(tenant, "c@example.com");

    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/conversations",
                Map.of(
                    "contact_id", contactId, "subject", "Pricing", "content", "How much is pro?"));
    assertThat(created.status()).isEqualTo(201);
    String id = created.text("/conversation_id");

    JsonNode conversation = tenant.api().get("/api/v1/conversations/" + id).at("/conversation");
    assertThat(conversation.get("channel").asString()).isEqualTo("email"); // default
    assertThat(conversation.get("status").asString()).isEqualTo("active");
    assertThat(conversation.get("override_status").asString()).isEqualTo("ai_active");
    assertThat(conversation.get("subject").asString()).isEqualTo("Pricing");
    JsonNode messages =
        tenant.api().get("/api/v1/conversations/" + id + "/messages").at("/messages");
    assertThat(messages.size()).isEqualTo(1);
    assertThat(messages.get(0).get("direction").asString()).isEqualTo("inbound"); // default
    assertThat(messages.get(0).get("content").asString()).isEqualTo("How much is pro?");

    List<JsonNode> events = events(tenant.id(), "conversation.created");
    assertThat(events).hasSize(1);
    assertThat(events.get(0).at("/data/conversation_id").asString()).isEqualTo(id);
    assertThat(events.get(0).at("/data/contact_id").asString()).isEqualTo(contactId);
  }

  @Test
  void conversationIdAppendsAMessageAndMovesLastActivity() {
    var tenant = newTenant();
    String contactId = contact(tenant, "c@example.com");
    String id =
        tenant
            .api()
            .post("/api/v1/conversations", Map.of("contact_id", contactId, "channel", "sms"))
            .text("/conversation_id");
    String before =
        tenant.api().get("/api/v1/conversations/" + id).text("/conversation/last_activity_at");

    ApiResponse appended =
        tenant
            .api()
            .post(
                "/api/v1/conversations",
                Map.of(
                    "contact_id",
                    contactId,
                    "conversation_id",
                    id,
                    "content",
                    "On my way",
                    "direction",
                    "outbound"));
    assertThat(appended.status()).isEqualTo(201);
    assertThat(appended.text("/conversation_id")).isEqualTo(id);

    JsonNode messages =
        tenant.api().get("/api/v1/conversations/" + id + "/messages").at("/messages");
    assertThat(messages.size()).isEqualTo(1);
    assertThat(messages.get(0).get("direction").asString()).isEqualTo("outbound");
    String after =
        tenant.api().get("/api/v1/conversations/" + id).text("/conversation/last_activity_at");
    assertThat(java.time.OffsetDateTime.parse(after))
        .isAfter(java.time.OffsetDateTime.parse(before));
    assertThat(events(tenant.id(), "conversation.created")).hasSize(1);

    String otherContact = contact(tenant, "other@example.com");
    ApiResponse mismatch =
        tenant
            .api()
            .post(
                "/api/v1/conversations",
                Map.of("contact_id", otherContact, "conversation_id", id, "content", "x"));
    assertThat(mismatch.status()).isEqualTo(422);
    assertThat(mismatch.text("/errors/0/field")).isEqualTo("conversation_id");
  }

  @Test
  void invalidInputIsRefusedAndStoresNothing() {
    var tenant = newTenant();
    String contactId = contact(tenant, "c@example.com");
    ApiResponse badChannel =
        tenant
            .api()
            .post("/api/v1/conversations", Map.of("contact_id", contactId, "channel", "pigeon"));
    assertThat(badChannel.status()).isEqualTo(400);
    assertThat(badChannel.text("/errors/0/field")).isEqualTo("channel");
    ApiResponse badDirection =
        tenant
            .api()
            .post(
                "/api/v1/conversations",
                Map.of("contact_id", contactId, "content", "x", "direction", "sideways"));
    assertThat(badDirection.text("/errors/0/field")).isEqualTo("direction");
    ApiResponse noContact = tenant.api().post("/api/v1/conversations", Map.of("subject", "x"));
    assertThat(noContact.text("/errors/0/field")).isEqualTo("contact_id");
    ApiResponse unknownContact =
        tenant
            .api()
            .post(
                "/api/v1/conversations",
                Map.of("contact_id", "00000000-0000-0000-0000-000000000042"));
    assertThat(unknownContact.status()).isEqualTo(422);
    assertThat(tenant.api().get("/api/v1/conversations").at("/conversations").size()).isZero();
  }

  @Test
  void listFiltersByContactAndHonoursLimit() {
    var tenant = newTenant();
    String alice = contact(tenant, "alice@example.com");
    String bob = contact(tenant, "bob@example.com");
    tenant.api().post("/api/v1/conversations", Map.of("contact_id", alice));
    tenant.api().post("/api/v1/conversations", Map.of("contact_id", alice));
    tenant.api().post("/api/v1/conversations", Map.of("contact_id", bob));

    ApiResponse alices = tenant.api().get("/api/v1/conversations?contact_id=" + alice);
    assertThat(alices.at("/conversations").size()).isEqualTo(2);
    assertThat(alices.at("/conversations").valueStream().map(c -> c.get("contact_id").asString()))
        .containsOnly(alice);
    assertThat(tenant.api().get("/api/v1/conversations?limit=1").at("/conversations").size())
        .isEqualTo(1);
  }

  @Test
  void aPatchWithNullTagsClearsThemAndANullBooleanIsRefused() {
    var tenant = newTenant();
    String id =
        tenant
            .api()
            .post("/api/v1/conversations", Map.of("contact_id", contact(tenant, "t@example.com")))
            .text("/conversation_id");
    tenant
        .api()
        .patch("/api/v1/conversations/" + id, Map.of("tags", List.of("vip"), "starred", true));

    ApiResponse cleared =
        tenant.api().send("PATCH", "/api/v1/conversations/" + id, "{\"tags\": null}", JSON);
    ApiResponse unstarred =
        tenant.api().send("PATCH", "/api/v1/conversations/" + id, "{\"starred\": null}", JSON);

    assertThat(cleared.status()).as(cleared.toString()).isEqualTo(200);
    assertThat(cleared.at("/conversation/tags").toString()).isEqualTo("[]");
    assertThat(unstarred.status()).as(unstarred.toString()).isEqualTo(400);
    assertThat(unstarred.text("/errors/0/field")).isEqualTo("starred");
    assertThat(unstarred.text("/errors/0/message")).isEqualTo("cannot be null");
    assertThat(
            jdbc.sql("select starred from conversation where id = cast(:id as uuid)")
                .param("id", id)
                .query(Boolean.class)
                .single())
        .as("the refused patch changed nothing")
        .isTrue();
  }

  @Test
  void handingTheConversationToAHumanEmitsOverride() {
    var tenant = newTenant();
    String id =
        tenant
            .api()
            .post("/api/v1/conversations", Map.of("contact_id", contact(tenant, "c@example.com")))
            .text("/conversation_id");

    ApiResponse starred =
        tenant
            .api()
            .patch(
                "/api/v1/conversations/" + id,
                Map.of("starred", true, "tags", List.of("vip", "billing")));
    assertThat(starred.at("/conversation/starred").asBoolean()).isTrue();
    assertThat(starred.at("/conversation/tags").toString()).isEqualTo("[\"vip\",\"billing\"]");
    assertThat(events(tenant.id(), "conversation.override")).isEmpty();

    ApiResponse human =
        tenant
            .api()
            .patch("/api/v1/conversations/" + id, Map.of("override_status", "human_active"));
    assertThat(human.text("/conversation/override_status")).isEqualTo("human_active");
    List<JsonNode> overrides = events(tenant.id(), "conversation.override");
    assertThat(overrides).hasSize(1);
    assertThat(overrides.get(0).at("/data/previous_override_status").asString())
        .isEqualTo("ai_active");

    tenant
        .api()
        .patch(
            "/api/v1/conversations/" + id,
            Map.of("override_status", "human_active", "status", "closed"));
    assertThat(events(tenant.id(), "conversation.override")).hasSize(1);
    ApiResponse badStatus =
        tenant.api().patch("/api/v1/conversations/" + id, Map.of("status", "gone"));
    assertThat(badStatus.status()).isEqualTo(400);
  }
}
