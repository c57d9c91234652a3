package com.crmflow.api.outboundemail;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.outboundemail.ScriptedSmtpServer.Behaviour;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.GreenMails;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.PendingActivities;
import com.crmflow.api.support.RefusedPort;
import com.crmflow.shared.outbound.HandOverLedger;
import com.crmflow.worker.activity.EmailActivitiesImpl;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * email nodes against a real SMTP server (GreenMail) on loopback. A test that needs an outage or a
 * server that answers otherwise points this service's sender at another port for its duration; the
 * GreenMail server itself is never stopped, so no test depends on binding a port again.
 */
// a configuration of its own: its service stops after the class instead of idling beside the others
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class SmtpEmailTest extends ApiTest {

  private static final GreenMail SMTP = GreenMails.startedOnAFreePort();

  @DynamicPropertySource
  static void smtp(DynamicPropertyRegistry registry) {
    registry.add("spring.mail.host", () -> "127.0.0.1");
    registry.add("spring.mail.port", () -> SMTP.getSmtp().getPort());
    registry.add("crm.mail.from", () -> "flows@crm.example");
    // a server that never answers is given up on quickly
    registry.add("spring.mail.properties.mail.smtp.timeout", () -> "2000");
  }

  @AfterAll
  static void stop() {
    SMTP.stop();
  }

  @Autowired private WorkflowClient temporal;
  @Autowired private JavaMailSenderImpl mailSender;
  @Autowired private ObjectProvider<JavaMailSender> mailSenders;
  @Autowired private ObjectProvider<HandOverLedger> handOverLedgers;
  private TenantClient tenant;

  @BeforeEach
  void setUp() throws Exception {
    SMTP.purgeEmailFromAllMailboxes();
    tenant = newTenant();
  }

  @AfterEach
  void sendThroughGreenMailAgain() {
    mailSender.setPort(SMTP.getSmtp().getPort());
  }

  /** Points this service's SMTP sender at another server on loopback. */
  private void sendThrough(int port) {
    mailSender.setPort(port);
  }

  private String contact(String email, boolean doNotEmail) {
    return tenant
        .api()
        .post(
            "/api/v1/contacts",
            Map.of(
                "email",
                email,
                "first_name",
                "Grace",
                "company",
                "Navy",
                "do_not_email",
                doNotEmail))
        .text("/contact/id");
  }

  private JsonNode run(Map<String, Object> emailConfig, Map<String, Object> payload) {
    return awaitRun(tenant.api(), start(emailConfig, payload));
  }

  /** Fires a webhook_trigger → email flow and returns the run id. */
  private String start(Map<String, Object> emailConfig, Map<String, Object> payload) {
    String hook = uniqueId("hook");
    activeAutomation(tenant.api(), chain(hook, node("mail", "email", emailConfig)));
    return fire(anonymous(), tenant.id(), hook, payload);
  }

  @Test
  void aTemplateEmailArrivesRenderedWithItsMessageId() throws Exception {
    String contactId = contact("grace@navy.example", false);
    String templateId =
        tenant
            .api()
            .post(
                "/api/v1/email-templates",
                Map.of(
                    "name",
                    "welcome",
                    "subject",
                    "Welcome {{contact.first_name}} from {{contact.company}}",
                    "text_body",
                    "Plan {{trigger.plan}}, missing [{{trigger.nope}}]"))
            .text("/email_template/id");

    JsonNode run =
        run(Map.of("templateId", templateId), Map.of("contact_id", contactId, "plan", "gold"));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    MimeMessage[] received = SMTP.getReceivedMessages();
    assertThat(received).hasSize(1);
    MimeMessage mail = received[0];
    assertThat(mail.getSubject()).isEqualTo("Welcome Grace from Navy");
    assertThat(Arrays.toString(mail.getRecipients(Message.RecipientType.TO)))
        .isEqualTo("[grace@navy.example]");
    assertThat(mail.getFrom()[0].toString()).isEqualTo("flows@crm.example");
    String runId = run.get("id").asString();
    assertThat(mail.getMessageID()).isEqualTo("<" + runId + ".mail@crmflow.local>");
    assertThat(GreenMailUtil.getBody(mail).trim()).isEqualTo("Plan gold, missing []");
    JsonNode listed = tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).json();
    assertThat(listed.at("/outbound_emails/0/status").asString()).isEqualTo("sent");
  }

  /**
   * A stored template reads {@code contact} and {@code trigger} only: a template is edited apart
   * from the flows that use it, so what else a run holds (a written record) renders empty in it,
   * and activating the flow asks nothing of that record's read scope. The node's own subject reads
   * the whole run, as every config value does (and is counted).
   */
  @Test
  void aTemplateReadsTheContactAndTheTriggerOnly() throws Exception {
    String contactId = contact("template.reader@navy.example", false);
    String templateId =
        tenant
            .api()
            .post(
                "/api/v1/email-templates",
                Map.of(
                    "name",
                    "leaky",
                    "subject",
                    "Deal [{{create_record_1.record.name}}] for {{contact.first_name}}",
                    "text_body",
                    "Plan {{trigger.plan}} [{{create_record_1}}] [{{ create_record_1.record }}]",
                    "html_body",
                    "<p>{{create_record_1.record.value}} {{contact.company}}</p>"))
            .text("/email_template/id");
    String hook = uniqueId("hook");
    String flow =
        com.crmflow.api.support.SequenceSupport.automation(tenant.api(), "Template " + hook);
    assertThat(
            tenant
                .api()
                .put(
                    "/api/sequences/" + flow + "/canvas",
                    chain(
                        hook,
                        node(
                            "deal",
                            "create_record",
                            Map.of(
                                "entityType",
                                "opportunity",
                                "fieldMappings",
                                Map.of("name", "Secret merger", "value", 987654))),
                        node("mail", "email", Map.of("templateId", templateId))))
                .status())
        .isEqualTo(200);
    // a key that writes opportunities but cannot read them activates the flow
    var narrow =
        keyFor(
            tenant.id(),
            java.util.List.of(
                "sequences:read", "sequences:write", "contacts:read", "opportunities:write"),
            null);
    var activated = narrow.patch("/api/v1/sequences/" + flow, Map.of("status", "active"));
    assertThat(activated.status()).as(activated.toString()).isEqualTo(200);

    JsonNode run =
        awaitRun(
            tenant.api(),
            fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId, "plan", "gold")));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/node_log/1/output/record/name").asString())
        .as("the run did hold the record")
        .isEqualTo("Secret merger");
    MimeMessage[] received = SMTP.getReceivedMessages();
    assertThat(received).hasSize(1);
    assertThat(received[0].getSubject()).isEqualTo("Deal [] for Grace");
    String mime = GreenMailUtil.getWholeMessage(received[0]);
    assertThat(mime).contains("Plan gold [] []", "Navy").doesNotContain("Secret", "987654");
    String stored =
        jdbc.sql("select subject || text_body || html_body from outbound_email where run_id = :r")
            .param("r", UUID.fromString(run.get("id").asString()))
            .query(String.class)
            .single();
    assertThat(stored).contains("Deal [] for Grace", "Plan gold [] []", "<p> Navy</p>");
    assertThat(stored).doesNotContain("Secret", "987654");
  }

  @Test
  void doNotEmailSkipsTheNodeAndTheRunGoesOn() {
    String contactId = contact("quiet@navy.example", true);

    JsonNode run = run(Map.of("subject", "Hello"), Map.of("contact_id", contactId));

    assertThat(run.get("status").asString()).isEqualTo("completed");
    JsonNode entry = run.at("/node_log/1");
    assertThat(entry.get("status").asString()).isEqualTo("skipped");
    assertThat(entry.at("/output/skipped").asString()).isEqualTo("contact has do_not_email");
    assertThat(SMTP.getReceivedMessages()).isEmpty();
  }

  @Test
  void aConfiguredRecipientTakesVariables() throws Exception {
    JsonNode run =
        run(
            Map.of("to", "{{trigger.owner}}", "subject", "New signup: {{trigger.who}}"),
            Map.of("owner", "owner@crm.example", "who", "Linus"));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(SMTP.getReceivedMessages()).hasSize(1);
    assertThat(GreenMailUtil.getAddressList(SMTP.getReceivedMessages()[0].getAllRecipients()))
        .isEqualTo("owner@crm.example");
  }

  @Test
  void textOutsideAsciiArrivesInTheSubjectAndTheBody() throws Exception {
    // two-, three- and four-byte UTF-8, in the node's config and in the trigger payload
    String text = "Zoë → Ωmega 日本 🚀";
    String who = "Åsa 東京 😀";
    String to = "zoe-" + UUID.randomUUID() + "@crm.example";

    JsonNode run =
        run(
            Map.of(
                "to", to, "subject", text + " {{trigger.who}}", "body", "{{trigger.who}} " + text),
            Map.of("who", who));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    // another test's email may arrive late: only this one's recipient counts
    MimeMessage[] received = SMTP.getReceivedMessagesForDomain(to);
    assertThat(received).hasSize(1);
    MimeMessage mail = received[0];
    assertThat(mail.getSubject()).isEqualTo(text + " " + who);
    assertThat(((String) mail.getContent()).trim()).isEqualTo(who + " " + text);
    JsonNode listed =
        tenant.api().get("/api/v1/outbound-emails?run_id=" + run.get("id").asString()).json();
    assertThat(listed.at("/outbound_emails/0/subject").asString()).isEqualTo(text + " " + who);
    assertThat(listed.at("/outbound_emails/0/text_body").asString()).isEqualTo(who + " " + text);
  }

  @Test
  void anInvalidRecipientFailsTheNodeWithoutRetrying() {
    JsonNode run = run(Map.of("to", "not an address", "subject", "x"), Map.of());

    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("invalid recipient address");
    assertThat(SMTP.getReceivedMessages()).isEmpty();
  }

  @Test
  void anSmtpOutageIsRetriedWithBackoffAndTheEmailIsSentOnce() throws Exception {
    String runId;
    try (RefusedPort outage = new RefusedPort()) {
      sendThrough(outage.port());
      runId = start(Map.of("to", "ops@crm.example", "subject", "After the outage"), Map.of("n", 1));
      String workflowId =
          tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/workflow_id");
      await().atMost(Patience.EVENTUALLY).until(() -> failedSendAttempts(workflowId) >= 1);
      JsonNode waiting = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
      assertThat(waiting.get("status").asString()).isEqualTo("running");
    }

    sendThroughGreenMailAgain();
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(SMTP.getReceivedMessages()).hasSize(1);
    assertThat(SMTP.getReceivedMessages()[0].getSubject()).isEqualTo("After the outage");
    assertThat(run.at("/node_log").size()).isEqualTo(2);
    assertThat(run.at("/node_log/1/status").asString()).isEqualTo("completed");
    JsonNode listed = tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).json();
    assertThat(listed.at("/outbound_emails").size()).isEqualTo(1);
    assertThat(listed.at("/outbound_emails/0/status").asString()).isEqualTo("sent");
  }

  @Test
  void smtpSocketsHaveTimeoutsUnderTheActivitysOwnUnlessConfigured() {
    assertThat(mailSender.getJavaMailProperties())
        .containsEntry("mail.smtp.connectiontimeout", "10000")
        .containsEntry("mail.smtp.writetimeout", "20000")
        .containsEntry("mail.smtp.timeout", "2000");
  }

  @Test
  void anEmailTheServerTookWithoutAnsweringIsNotSentAgainUntilTheRunIsRetried() throws Exception {
    JsonNode run;
    try (ScriptedSmtpServer silent = new ScriptedSmtpServer(Behaviour.SILENT_AFTER_DATA)) {
      sendThrough(silent.port());
      run =
          awaitRun(
              tenant.api(),
              start(Map.of("to", "ops@crm.example", "subject", "Exactly once"), Map.of()));

      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("failed");
      assertThat(run.get("error").asString())
          .contains("may have been delivered")
          .contains("it is not sent again");
      assertThat(run.at("/node_log/1/status").asString()).isEqualTo("failed");
      assertThat(silent.messagesReceived()).isEqualTo(1);
    }
    sendThroughGreenMailAgain();
    String runId = run.get("id").asString();
    // booked as unknown, for an operator to look at
    JsonNode booked =
        tenant.api().get("/api/v1/outbound-emails?status=unknown&run_id=" + runId).json();
    assertThat(booked.at("/outbound_emails").size()).isEqualTo(1);
    assertThat(booked.at("/outbound_emails/0/status").asString()).isEqualTo("unknown");
    assertThat(booked.at("/outbound_emails/0/subject").asString()).isEqualTo("Exactly once");

    String retryId =
        tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of()).text("/run/id");
    JsonNode retried = awaitRun(tenant.api(), retryId);

    assertThat(retried.get("status").asString()).as(retried.toString()).isEqualTo("completed");
    assertThat(SMTP.getReceivedMessages()).hasSize(1);
    assertThat(SMTP.getReceivedMessages()[0].getSubject()).isEqualTo("Exactly once");
  }

  @Test
  void aRefusedEmailIsRetriedAndSentOnceTheServerTakesIt() throws Exception {
    String runId;
    try (ScriptedSmtpServer refusing = new ScriptedSmtpServer(Behaviour.REFUSE_RECIPIENTS)) {
      sendThrough(refusing.port());
      runId = start(Map.of("to", "ops@crm.example", "subject", "Second try"), Map.of());
      String workflowId =
          tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/workflow_id");
      await().atMost(Patience.EVENTUALLY).until(() -> failedSendAttempts(workflowId) >= 1);
      assertThat(refusing.messagesReceived()).isZero();
    }
    sendThroughGreenMailAgain();

    // the next attempt finds the refusal's mark, not the hand-over's, so it sends
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(SMTP.getReceivedMessages()).hasSize(1);
    assertThat(run.at("/node_log/1/output/status").asString()).isEqualTo("sent");
  }

  @Test
  void anAttemptWithoutItsPredecessorsHeartbeatDoesNotSendADeliveredEmailAgain() {
    EmailMessage message = emailOfANewRun("Resumed");

    assertThat(sendAsANewActivity(message).status()).isEqualTo(EmailReceipt.SENT);
    // an attempt that has no heartbeat of the one before (its predecessor sent the email and
    // stopped before Temporal heard of it) finds the ledger's mark
    assertThat(sendAsANewActivity(message).status()).isEqualTo(EmailReceipt.SENT);

    assertThat(SMTP.getReceivedMessages()).hasSize(1);
  }

  @Test
  void aHandOverCutShortIsNotRepeatedByAnAttemptWithoutItsPredecessorsHeartbeat() throws Exception {
    EmailMessage message = emailOfANewRun("Cut short");
    try (ScriptedSmtpServer silent = new ScriptedSmtpServer(Behaviour.SILENT_AFTER_DATA)) {
      sendThrough(silent.port());
      Throwable cutShort = catchThrowable(() -> sendAsANewActivity(message));
      assertThat(((ApplicationFailure) cutShort.getCause()).getType())
          .isEqualTo(EmailActivities.OUTCOME_UNKNOWN);
      silent.answer(Behaviour.ACCEPT);

      Throwable again = catchThrowable(() -> sendAsANewActivity(message));

      assertThat(((ApplicationFailure) again.getCause()).getType())
          .isEqualTo(EmailActivities.OUTCOME_UNKNOWN);
      assertThat(silent.messagesReceived()).isEqualTo(1);
    }
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void withoutSmtpAnEmailAnEarlierAttemptCapturedIsNotCapturedAgain(CapturedOutput output) {
    EmailMessage message = emailOfANewRun("Captured");
    ObjectProvider<JavaMailSender> noSmtp =
        new StaticListableBeanFactory().getBeanProvider(JavaMailSender.class);

    assertThat(sendAsANewActivity(message, noSmtp).status()).isEqualTo(EmailReceipt.CAPTURED);
    // an attempt after one that captured it and stopped before Temporal heard of it (the process
    // killed then) finds the ledger's note
    assertThat(sendAsANewActivity(message, noSmtp).status()).isEqualTo(EmailReceipt.CAPTURED);

    assertThat(output.getAll().split(Pattern.quote("captured email " + message.messageId()), -1))
        .as("captured once")
        .hasSize(2);
    assertThat(output.getAll())
        .contains("Email " + message.messageId() + " was captured by an earlier run of its node");
    assertThat(handOverLedgers.getObject().state("email " + message.messageId()))
        .contains("delivered");
  }

  /** The email of node "mail" of a run of its own. */
  private static EmailMessage emailOfANewRun(String subject) {
    return new EmailMessage(
        EmailMessage.messageIdFor(UUID.randomUUID().toString(), "mail"),
        "ops@crm.example",
        subject,
        "body",
        null);
  }

  /**
   * Sends as a first attempt of a new activity, with this service's SMTP sender and hand-over
   * ledger: an attempt that knows nothing of the ones before it but what the ledger holds.
   */
  private EmailReceipt sendAsANewActivity(EmailMessage message) {
    return sendAsANewActivity(message, mailSenders);
  }

  /** As above, with {@code senders} (none: the embedded defaults' capture). */
  private EmailReceipt sendAsANewActivity(
      EmailMessage message, ObjectProvider<JavaMailSender> senders) {
    TestActivityEnvironment activities = TestActivityEnvironment.newInstance();
    try {
      activities.registerActivitiesImplementations(
          new EmailActivitiesImpl(senders, handOverLedgers, "flows@crm.example"));
      return activities
          .newActivityStub(
              EmailActivities.class,
              ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(10)).build())
          .send(message);
    } finally {
      activities.close();
    }
  }

  private int failedSendAttempts(String workflowId) {
    return PendingActivities.failedAttempts(temporal, workflowId, "email");
  }
}
