package com.crmflow.api.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * POST /generate with a language model configured, against a loopback server that speaks the
 * provider's protocol (see {@link FakeModelServer}): each case asserts the canvas stored and the
 * X-Flow-Generator header. One subclass per provider, each with its own service.
 */
// each provider's service is needed by its class only: closing it frees its servers and ports
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
abstract class LlmGenerateTest extends ApiTest {

  /** A tenant whose prompts never leave the service (crm.generate.llm.off-for-tenants). */
  static final UUID KEPT_OFF = UUID.fromString("0ff0ff00-0000-4000-8000-00000000beef");

  static final String TIMEOUT = "2s";

  static final String PROMPT =
      "When a webhook arrives, wait 2 days, send an email with subject \"Welcome\"";

  static final String GOOD_FLOW =
      """
      {"nodes":[
        {"id":"trigger","type":"webhook_trigger","label":"Webhook","config":{}},
        {"id":"wait","type":"delay","label":"Wait 2 days","config":{"delayDays":2}},
        {"id":"welcome","type":"email","label":"Welcome","config":{"subject":"Welcome aboard"}}],
       "edges":[{"source":"trigger","target":"wait"},{"source":"wait","target":"welcome"}]}
      """;

  /** Valid JSON, but the email has no subject: the canvas checks refuse it. */
  static final String FLOW_WITHOUT_SUBJECT =
      GOOD_FLOW.replace("\"subject\":\"Welcome aboard\"", "");

  /** The crm.generate.llm settings of a provider's service, pointed at its loopback server. */
  static void settings(
      DynamicPropertyRegistry registry,
      String provider,
      String model,
      String apiKey,
      FakeModelServer server) {
    registry.add("crm.generate.llm.provider", () -> provider);
    registry.add("crm.generate.llm.base-url", server::baseUrl);
    registry.add("crm.generate.llm.model", () -> model);
    registry.add("crm.generate.llm.api-key", () -> apiKey);
    registry.add("crm.generate.llm.timeout", () -> TIMEOUT);
    registry.add("crm.generate.llm.off-for-tenants", KEPT_OFF::toString);
  }

  abstract FakeModelServer server();

  abstract FakeModelServer.Answer toolCall(String flow);

  /** An answer that cannot be read as a flow. */
  abstract FakeModelServer.Answer malformed();

  /** Whether a malformed answer gets the repair round (else the provider's client fails it). */
  abstract boolean malformedIsRepaired();

  abstract FakeModelServer.Answer rateLimited();

  /** How a request of this provider says that a tool must be called (whitespace removed). */
  abstract String toolRequired();

  /**
   * The answer, the labels of the canvas stored, what the provider received, and how long the
   * generate request took (that request alone).
   */
  private record Outcome(
      ApiResponse answer, List<String> storedLabels, List<String> requests, long millis) {}

  private Outcome generate(TenantClient tenant, FakeModelServer.Answer... answers) {
    server().queue(answers);
    String flow = SequenceSupport.automation(tenant.api(), "Generated");
    long start = System.nanoTime();
    ApiResponse answer =
        tenant.api().post("/api/sequences/" + flow + "/generate", Map.of("prompt", PROMPT));
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    List<String> stored =
        tenant
            .api()
            .get("/api/sequences/" + flow + "/canvas")
            .at("/canvas/nodes")
            .valueStream()
            .map(n -> n.at("/data/label").asString())
            .toList();
    return new Outcome(answer, stored, List.copyOf(server().requests()), millis);
  }

  @Test
  void aGoodFlowFromTheModelIsStored() {
    var tenant = newTenant();
    tenant.api().post("/api/v1/contacts", Map.of("email", "private.person@example.com"));
    tenant
        .api()
        .post(
            "/api/v1/custom-fields",
            Map.of(
                "object_type", "contact", "field_label", "Favourite colour", "field_type", "text"));
    Outcome outcome = generate(tenant, toolCall(GOOD_FLOW));
    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("llm");
    assertThat(outcome.storedLabels()).containsExactly("Webhook", "Wait 2 days", "Welcome");
    assertThat(outcome.answer().at("/nodes/2/data/config/subject").asString())
        .isEqualTo("Welcome aboard");
    // only the prompt, the contract and the custom field keys leave
    assertThat(outcome.requests()).hasSize(1);
    // the model must answer by calling save_flow, in the provider's own words
    assertThat(outcome.requests().get(0).replaceAll("\\s+", "")).contains(toolRequired());
    assertThat(outcome.requests().get(0))
        .contains("wait 2 days", "save_flow", "webhook_trigger", "favourite_colour")
        .doesNotContain("private.person", tenant.id().toString());
  }

  @Test
  void twoFlowsDraftedAlikeInOneTenantBothActivate() {
    var tenant = newTenant();
    List<String> triggers = new java.util.ArrayList<>();
    for (int i = 0; i < 2; i++) {
      server().queue(toolCall(GOOD_FLOW));
      String flow = SequenceSupport.automation(tenant.api(), "Generated " + i);
      ApiResponse answer =
          tenant.api().post("/api/sequences/" + flow + "/generate", Map.of("prompt", PROMPT));
      assertThat(answer.header("X-Flow-Generator")).isEqualTo("llm");
      triggers.add(answer.text("/nodes/0/id"));
      // a webhook trigger's id is its address in the tenant: the model's "trigger" is not kept
      assertThat(
              tenant.api().patch("/api/v1/sequences/" + flow, Map.of("status", "active")).status())
          .isEqualTo(200);
    }
    assertThat(triggers).doesNotHaveDuplicates().doesNotContain("trigger");
  }

  @Test
  void aFlowThatBreaksTheRulesIsRepairedInOneRound() {
    Outcome outcome = generate(newTenant(), toolCall(FLOW_WITHOUT_SUBJECT), toolCall(GOOD_FLOW));
    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("llm");
    assertThat(outcome.storedLabels()).containsExactly("Webhook", "Wait 2 days", "Welcome");
    assertThat(outcome.requests()).hasSize(2);
    // the repair round lists the problem, after the model's own draft
    assertThat(outcome.requests().get(1)).contains("The flow was not saved", "subject");
  }

  @Test
  void aFlowThatStaysBrokenFallsBackToTheOfflineParser() {
    Outcome outcome =
        generate(newTenant(), toolCall(FLOW_WITHOUT_SUBJECT), toolCall(FLOW_WITHOUT_SUBJECT));
    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(outcome.requests()).hasSize(2);
    assertThat(offlineTypes(outcome)).containsExactly("webhook_trigger", "delay", "email");
    assertThat(outcome.storedLabels()).doesNotContain("Welcome");
  }

  @Test
  void aMalformedAnswerIsRepairedOrFallsBack() {
    Outcome outcome = generate(newTenant(), malformed(), toolCall(GOOD_FLOW));
    if (malformedIsRepaired()) {
      assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("llm");
      assertThat(outcome.storedLabels()).containsExactly("Webhook", "Wait 2 days", "Welcome");
      assertThat(outcome.requests().get(1)).contains("not valid JSON");
    } else {
      assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("offline");
      assertThat(outcome.requests()).hasSize(1);
      assertThat(offlineTypes(outcome)).containsExactly("webhook_trigger", "delay", "email");
    }
  }

  @Test
  void aDraftsHeaderValuesNeverReachTheLog(CapturedOutput output) {
    String secret = "Bearer sk-live-" + UUID.randomUUID();
    // a node of no known type, and an http_request without its url: both carry the header
    String unknownType =
        GOOD_FLOW.replace(
            "{\"id\":\"welcome\",\"type\":\"email\",\"label\":\"Welcome\",\"config\":{\"subject\":\"Welcome aboard\"}}",
            "{\"id\":\"welcome\",\"type\":\"http_call\",\"label\":\"Call\",\"config\":"
                + "{\"headers\":{\"Authorization\":\""
                + secret
                + "\"}}}");
    String noUrl = unknownType.replace("http_call", "http_request");
    assertThat(unknownType).contains(secret, "http_call");

    Outcome outcome = generate(newTenant(), toolCall(unknownType), toolCall(noUrl));

    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(outcome.requests()).hasSize(2);
    assertThat(output.getAll())
        .contains("Draft 1 of the language model has problems")
        .contains("node \"welcome\" (type \"http_call\") needs an id and a type")
        .contains("Draft 2 of the language model has problems")
        .contains("node welcome: data.config.url")
        .doesNotContain(secret)
        .doesNotContain("sk-live-");
  }

  @Test
  void aModelThatDoesNotAnswerInTimeFallsBack() {
    Outcome outcome =
        generate(newTenant(), new FakeModelServer.Answer(200, "{}", 6_000), toolCall(GOOD_FLOW));
    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(offlineTypes(outcome)).containsExactly("webhook_trigger", "delay", "email");
    assertThat(outcome.millis()).as("bounded by the timeout (%s)", TIMEOUT).isLessThan(5_500);
  }

  @Test
  void aDraftAndItsRepairTogetherStayWithinTheTimeout() {
    // each call alone is within the timeout (2 s); the two together (2.3 s) are not, whatever
    // the machine's speed, and the draft leaves 1.3 s for its round trip
    Outcome outcome =
        generate(
            newTenant(),
            delayed(toolCall(FLOW_WITHOUT_SUBJECT), 700),
            delayed(toolCall(GOOD_FLOW), 1_600));
    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(offlineTypes(outcome)).containsExactly("webhook_trigger", "delay", "email");
    assertThat(outcome.requests()).hasSize(2);
    assertThat(outcome.millis()).as("bounded by the timeout (%s)", TIMEOUT).isLessThan(3_500);
  }

  @Test
  void anAnswerThatTricklesInAfterItsHeadersStaysWithinTheTimeout() {
    // a server that answers at once and then sends its body slowly (a model still loading, a
    // slow generation streamed out): the timeout bounds the whole answer, not its first bytes
    Outcome outcome = generate(newTenant(), toolCall(GOOD_FLOW).trickledOver(8_000));
    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(offlineTypes(outcome)).containsExactly("webhook_trigger", "delay", "email");
    assertThat(outcome.millis()).as("bounded by the timeout (%s)", TIMEOUT).isLessThan(3_500);
  }

  @Test
  void anUnclearPromptTheModelCouldNotDraftIsAQuestion() {
    var tenant = newTenant();
    server().queue(rateLimited());
    String flow = SequenceSupport.automation(tenant.api(), "Generated");
    ApiResponse answer =
        tenant
            .api()
            .post(
                "/api/sequences/" + flow + "/generate",
                Map.of(
                    "prompt", "When a contact is created, if the amount is over 10000 wait 1 day"));
    assertThat(answer.status()).as(answer.toString()).isEqualTo(422);
    assertThat(answer.header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(answer.text("/errors/0/message")).contains("which deal?");
    assertThat(server().requests()).hasSize(1);
  }

  private static FakeModelServer.Answer delayed(FakeModelServer.Answer answer, long millis) {
    return new FakeModelServer.Answer(answer.status(), answer.body(), millis);
  }

  @Test
  void theProvidersRateLimitFallsBackInsteadOfAnswering429() {
    Outcome outcome = generate(newTenant(), rateLimited());
    assertThat(outcome.answer().status()).isEqualTo(200);
    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(offlineTypes(outcome)).containsExactly("webhook_trigger", "delay", "email");
  }

  @Test
  void aTenantKeptOffTheModelSendsItNothing() {
    jdbc.sql("insert into tenant (id, name) values (:id, 'kept off') on conflict do nothing")
        .param("id", KEPT_OFF)
        .update();
    String key = issueKey(KEPT_OFF, List.of("*"), null);
    Outcome outcome = generate(new TenantClient(KEPT_OFF, key, withKey(key)), toolCall(GOOD_FLOW));
    assertThat(outcome.answer().header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(outcome.requests()).isEmpty();
  }

  private static List<String> offlineTypes(Outcome outcome) {
    return outcome.answer().at("/nodes").valueStream().map(n -> n.get("type").asString()).toList();
  }
}
