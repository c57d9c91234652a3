package com.crmflow.api.outboundemail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.crmflow.api.outboundemail.ScriptedSmtpServer.Behaviour;
import com.crmflow.shared.outbound.HandOver;
import com.crmflow.shared.outbound.HandOverLedger;
import com.crmflow.worker.activity.EmailActivitiesImpl;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import io.grpc.Status;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import jakarta.mail.internet.MimeMessage;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.mail.SimpleMailMessage;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/**
 * The email activity's guard against sending twice, one attempt at a time, against a scripted SMTP
 * server on loopback, with the marks kept by Temporal only (the stand-alone worker). Temporal's
 * side (the mark reaching the next attempt) and the database's copy are in SmtpEmailTest.
 */
class EmailHandOverTest {

  private static final EmailMessage MESSAGE =
      new EmailMessage(
          EmailMessage.messageIdFor("run-1", "mail"), "ops@crm.example", "Once", "body", null);

  private final TestActivityEnvironment temporal = TestActivityEnvironment.newInstance();
  private final List<String> heartbeats = new CopyOnWriteArrayList<>();
  private ScriptedSmtpServer smtp;

  @AfterEach
  void tearDown() throws Exception {
    temporal.close();
    if (smtp != null) {
      smtp.close();
    }
  }

  /**
   * The email activity sending to {@code smtp}; each heartbeat is noted with the server's count.
   */
  private EmailActivities emailActivities(Behaviour behaviour) throws Exception {
    return emailActivities(behaviour, sender -> sender);
  }

  /** As above, through the sender {@code wrap} makes of Spring Boot's. */
  private EmailActivities emailActivities(
      Behaviour behaviour, Function<JavaMailSenderImpl, JavaMailSender> wrap) throws Exception {
    smtp = new ScriptedSmtpServer(behaviour);
    JavaMailSenderImpl smtpSender = new JavaMailSenderImpl();
    smtpSender.setHost("127.0.0.1");
    smtpSender.setPort(smtp.port());
    Properties timeouts = new Properties();
    timeouts.put("mail.smtp.timeout", "1000");
    smtpSender.setJavaMailProperties(timeouts);
    JavaMailSender sender = wrap.apply(smtpSender);
    temporal.registerActivitiesImplementations(
        new EmailActivitiesImpl(
            new StaticListableBeanFactory(Map.of("mailSender", sender))
                .getBeanProvider(JavaMailSender.class),
            // as in the stand-alone worker: the marks live only with Temporal
            new StaticListableBeanFactory().getBeanProvider(HandOverLedger.class),
            "flows@crm.example"));
    temporal.setActivityHeartbeatListener(
        String.class, mark -> heartbeats.add(mark + " after " + smtp.messagesReceived()));
    return temporal.newActivityStub(
        EmailActivities.class,
        ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(10)).build());
  }

  private static ApplicationFailure failureOf(Runnable attempt) {
    return (ApplicationFailure)
        catchThrowableOfType(ActivityFailure.class, attempt::run).getCause();
  }

  @Test
  void theHandOverIsMarkedBeforeTheMessageReachesTheServer() throws Exception {
    EmailActivities email = emailActivities(Behaviour.ACCEPT);

    EmailReceipt receipt = email.send(MESSAGE);

    assertThat(receipt).isEqualTo(new EmailReceipt(EmailReceipt.SENT, MESSAGE.messageId()));
    assertThat(heartbeats).containsExactly("handing-over after 0");
    assertThat(smtp.messagesReceived()).isEqualTo(1);
  }

  @Test
  void anAttemptAfterOneThatStoppedMidHandOverDoesNotSend() throws Exception {
    EmailActivities email = emailActivities(Behaviour.ACCEPT);
    temporal.setHeartbeatDetails("handing-over");

    ApplicationFailure failure = failureOf(() -> email.send(MESSAGE));

    assertThat(failure.getType()).isEqualTo(EmailActivities.OUTCOME_UNKNOWN);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(failure.getOriginalMessage())
        .contains("may have been delivered")
        .contains("an earlier attempt stopped while handing it over");
    assertThat(smtp.connections()).isZero();
    assertThat(smtp.messagesReceived()).isZero();
  }

  @Test
  void aRefusalIsRetriedAndItsMarkLetsTheNextAttemptSend() throws Exception {
    EmailActivities email = emailActivities(Behaviour.REFUSE_RECIPIENTS);

    ApplicationFailure refused = failureOf(() -> email.send(MESSAGE));

    assertThat(refused.getType()).isEqualTo("SmtpRefused");
    assertThat(refused.isNonRetryable()).isFalse();
    assertThat(refused.getOriginalMessage()).contains("550 5.1.1 no such mailbox");
    // the refusal's mark also goes with the failure as its last heartbeat details (SmtpEmailTest
    // checks that the next attempt gets it from the Temporal server)
    assertThat(heartbeats).containsExactly("handing-over after 0", "not-delivered after 0");

    temporal.setHeartbeatDetails("not-delivered");
    smtp.answer(Behaviour.ACCEPT);
    assertThat(email.send(MESSAGE).status()).isEqualTo(EmailReceipt.SENT);
    assertThat(smtp.messagesReceived()).isEqualTo(1);
  }

  @Test
  void aServerThatTookTheMessageWithoutAnsweringFailsTheNodeAtOnce() throws Exception {
    EmailActivities email = emailActivities(Behaviour.SILENT_AFTER_DATA);

    ApplicationFailure failure = failureOf(() -> email.send(MESSAGE));

    assertThat(failure.getType()).isEqualTo(EmailActivities.OUTCOME_UNKNOWN);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(failure.getOriginalMessage())
        .contains("the connection to the SMTP server failed while handing it over");
    assertThat(smtp.messagesReceived()).isEqualTo(1);
  }

  /** An application's own JavaMailSender bean, which does not say which phase failed. */
  private static JavaMailSender applicationsOwn(JavaMailSenderImpl delegate) {
    return new JavaMailSender() {
      @Override
      public MimeMessage createMimeMessage() {
        return delegate.createMimeMessage();
      }

      @Override
      public MimeMessage createMimeMessage(InputStream contentStream) {
        return delegate.createMimeMessage(contentStream);
      }

      @Override
      public void send(MimeMessage... mimeMessages) {
        delegate.send(mimeMessages);
      }

      @Override
      public void send(SimpleMailMessage... simpleMessages) {
        delegate.send(simpleMessages);
      }
    };
  }

  @Test
  void throughAnApplicationsOwnSenderTheHandOverIsMarkedAndAFailureIsNotRetried() throws Exception {
    EmailActivities email = emailActivities(Behaviour.ACCEPT, EmailHandOverTest::applicationsOwn);

    assertThat(email.send(MESSAGE).status()).isEqualTo(EmailReceipt.SENT);
    assertThat(heartbeats).containsExactly("handing-over after 0");
    assertThat(smtp.messagesReceived()).isEqualTo(1);

    smtp.answer(Behaviour.SILENT_AFTER_DATA);
    ApplicationFailure failure = failureOf(() -> email.send(MESSAGE));

    assertThat(failure.getType()).isEqualTo(EmailActivities.OUTCOME_UNKNOWN);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(smtp.messagesReceived()).isEqualTo(2);
  }

  @Test
  void aMarkTemporalDoesNotConfirmStopsTheSendAndIsRetried() throws Exception {
    EmailActivities email = emailActivities(Behaviour.ACCEPT);
    temporal.setActivityHeartbeatListener(
        String.class,
        mark -> {
          heartbeats.add(mark);
          if (mark.equals("handing-over")) {
            throw Status.UNAVAILABLE.withDescription("Temporal is away").asRuntimeException();
          }
        });

    ApplicationFailure failure = failureOf(() -> email.send(MESSAGE));

    assertThat(failure.getType()).isEqualTo(HandOver.MARK_NOT_RECORDED);
    assertThat(failure.isNonRetryable()).isFalse();
    assertThat(failure.getOriginalMessage())
        .contains("the email was not sent")
        .contains("Temporal did not confirm the mark");
    assertThat(smtp.messagesReceived()).isZero();
    // the next attempt may send
    assertThat(heartbeats).containsExactly("handing-over", "not-delivered");
  }

  @Test
  void anUnreachableServerIsRetriedWithoutAMark() throws Exception {
    EmailActivities email = emailActivities(Behaviour.ACCEPT);
    smtp.close();

    ApplicationFailure failure = failureOf(() -> email.send(MESSAGE));

    assertThat(failure.getType()).isEqualTo("SmtpUnreachable");
    assertThat(failure.isNonRetryable()).isFalse();
    assertThat(heartbeats).isEmpty();
  }
}
