package com.crmflow.worker.activity;

import com.crmflow.shared.outbound.HandOver;
import com.crmflow.shared.outbound.HandOverLedger;
import com.crmflow.shared.outbound.IntegrationProperties;
import com.crmflow.shared.tracing.CurrentTrace;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import io.temporal.failure.ApplicationFailure;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Transport;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mail.MailException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;

/**
 * email nodes over SMTP (Spring Mail, configured with {@code spring.mail.*}). The Message-ID header
 * is the node's idempotency key, the same on every retry. Never sent twice (see {@link HandOver}):
 * an unreachable server or a refusal is retried with the node's backoff; a connection lost while
 * the message was on its way, or an earlier attempt that stopped then, fails the node.
 *
 * <p>With no {@code spring.mail.host} (embedded defaults) nothing is sent: the message is logged
 * and reported as captured, once (see {@link #capture}), and api-server keeps it in its outbound
 * email table.
 */
@Component("emailActivities")
public class EmailActivitiesImpl implements EmailActivities {

  private static final Logger log = LoggerFactory.getLogger(EmailActivitiesImpl.class);

  private final ObjectProvider<JavaMailSender> mailSender;
  private final ObjectProvider<HandOverLedger> ledger;
  private final String from;

  @Autowired
  public EmailActivitiesImpl(
      ObjectProvider<JavaMailSender> mailSender,
      ObjectProvider<HandOverLedger> ledger,
      IntegrationProperties properties) {
    this(mailSender, ledger, properties.mail().from());
  }

  public EmailActivitiesImpl(
      ObjectProvider<JavaMailSender> mailSender,
      ObjectProvider<HandOverLedger> ledger,
      String from) {
    this.mailSender = mailSender;
    this.ledger = ledger;
    this.from = from;
  }

  @Override
  public EmailReceipt send(EmailMessage message) {
    InternetAddress to = address(message.to());
    JavaMailSender sender = mailSender.getIfAvailable();
    HandOver handOver =
        HandOver.begin(
            "the email", OUTCOME_UNKNOWN, ledger.getIfAvailable(), "email " + message.messageId());
    if (sender == null) {
      return capture(message, handOver);
    }
    if (handOver.deliveredBefore()) {
      log.info(
          "Email {} was delivered by an earlier run of its node: not sent again",
          message.messageId());
      return new EmailReceipt(EmailReceipt.SENT, message.messageId());
    }
    MimeMessage mime = mime(sender, message, to);
    if (!(sender instanceof JavaMailSenderImpl smtp)) {
      return sendThroughOtherSender(sender, mime, message, handOver);
    }
    Transport transport = connect(smtp);
    try {
      handOver.start();
      transport.sendMessage(mime, mime.getAllRecipients());
    } catch (SendFailedException refused) {
      Object[] delivered = refused.getValidSentAddresses();
      if (delivered != null && delivered.length > 0) {
        throw handOver.outcomeUnknown("the SMTP server took it for some recipients only");
      }
      handOver.notDelivered();
      throw ApplicationFailure.newFailure(
          "the SMTP server refused the email: " + described(refused), "SmtpRefused");
    } catch (MessagingException broken) {
      throw handOver.outcomeUnknown(
          "the connection to the SMTP server failed while handing it over: " + described(broken));
    } finally {
      closeQuietly(transport);
    }
    handOver.delivered();
    return new EmailReceipt(EmailReceipt.SENT, message.messageId());
  }

  /**
   * Without SMTP the capture is the delivery, noted in the ledger as one: an attempt after one that
   * captured the email and stopped before Temporal heard of it (a process killed then) finds the
   * note and does not capture it again, as a sent email is not sent again. Nothing leaves the
   * process, so the note is the capture and the log line follows it: a process killed between the
   * two leaves the email captured once, without its line, where the other order would log it twice.
   */
  private static EmailReceipt capture(EmailMessage message, HandOver handOver) {
    if (handOver.deliveredBefore()) {
      log.info(
          "Email {} was captured by an earlier run of its node: not captured again",
          message.messageId());
    } else {
      handOver.delivered();
      // the address and the rendered subject are the tenant's data, kept with the email's record
      log.info("No SMTP configured: captured email {}", message.messageId());
    }
    return new EmailReceipt(EmailReceipt.CAPTURED, message.messageId());
  }

  /**
   * A JavaMailSender other than Spring Boot's (an application's own bean) does not say which phase
   * failed, so any failure after the hand-over began counts as outcome unknown.
   */
  private static EmailReceipt sendThroughOtherSender(
      JavaMailSender sender, MimeMessage mime, EmailMessage message, HandOver handOver) {
    handOver.start();
    try {
      sender.send(mime);
    } catch (MailException failed) {
      throw handOver.outcomeUnknown("the mail sender failed: " + failed.getMessage());
    }
    handOver.delivered();
    return new EmailReceipt(EmailReceipt.SENT, message.messageId());
  }

  private MimeMessage mime(JavaMailSender sender, EmailMessage message, InternetAddress to) {
    try {
      MimeMessage mime = sender.createMimeMessage();
      boolean both = message.textBody() != null && message.htmlBody() != null;
      MimeMessageHelper helper = new MimeMessageHelper(mime, both, StandardCharsets.UTF_8.name());
      helper.setFrom(from);
      helper.setTo(to);
      helper.setSubject(message.subject());
      if (both) {
        helper.setText(message.textBody(), message.htmlBody());
      } else if (message.htmlBody() != null) {
        helper.setText(message.htmlBody(), true);
      } else {
        helper.setText(message.textBody() == null ? "" : message.textBody());
      }
      mime.setSentDate(new Date());
      // saveChanges assigns a fresh Message-ID, so ours is set after it
      mime.saveChanges();
      mime.setHeader("Message-ID", message.messageId());
      // the receiving side (a bounce, a support ticket) names the trace of the run that sent it
      CurrentTrace.traceId().ifPresent(id -> setHeader(mime, CurrentTrace.EMAIL_HEADER, id));
      return mime;
    } catch (MessagingException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          "could not build the email: " + e.getMessage(), INVALID_ADDRESS);
    }
  }

  private static void setHeader(MimeMessage mime, String name, String value) {
    try {
      mime.setHeader(name, value);
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Connects as JavaMailSenderImpl does. Nothing has been handed over yet, so it is retried. */
  private static Transport connect(JavaMailSenderImpl smtp) {
    String username = "".equals(smtp.getUsername()) ? null : smtp.getUsername();
    String password = username == null ? null : smtp.getPassword();
    String protocol = smtp.getProtocol() == null ? "smtp" : smtp.getProtocol();
    try {
      Transport transport = smtp.getSession().getTransport(protocol);
      transport.connect(smtp.getHost(), smtp.getPort(), username, password);
      return transport;
    } catch (MessagingException e) {
      throw ApplicationFailure.newFailure(
          "could not connect to the SMTP server: " + described(e), "SmtpUnreachable");
    }
  }

  /** JavaMail puts the server's answer in the chained exceptions ("Invalid Addresses" → 550 …). */
  private static String described(Exception e) {
    StringBuilder description = new StringBuilder(String.valueOf(e.getMessage()).strip());
    for (Exception next = e instanceof MessagingException m ? m.getNextException() : null;
        next != null;
        next = next instanceof MessagingException m ? m.getNextException() : null) {
      description.append("; ").append(String.valueOf(next.getMessage()).strip());
    }
    return description.toString();
  }

  private static void closeQuietly(Transport transport) {
    try {
      transport.close();
    } catch (MessagingException e) {
      // QUIT after the server's answer changes nothing about what was delivered
      log.debug("closing the SMTP connection failed", e);
    }
  }

  private static InternetAddress address(String to) {
    try {
      InternetAddress address = new InternetAddress(to, true);
      address.validate();
      return address;
    } catch (AddressException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          "invalid recipient address " + to + ": " + e.getMessage(), INVALID_ADDRESS);
    }
  }
}
