package com.crmflow.worker.activity;

import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import io.temporal.failure.ApplicationFailure;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;

/**
 * email nodes over SMTP (Spring Mail, configured with {@code spring.mail.*}). The Message-ID header
 * is the node's idempotency key, the same on every retry. SMTP failures are thrown as they are, so
 * Temporal retries them with the node's backoff; an address that cannot be valid fails the node.
 *
 * <p>With no {@code spring.mail.host} (embedded defaults) nothing is sent: the message is logged
 * and reported as captured, and api-server keeps it in its outbound email table.
 */
@Component("emailActivities")
public class EmailActivitiesImpl implements EmailActivities {

  private static final Logger log = LoggerFactory.getLogger(EmailActivitiesImpl.class);

  private final ObjectProvider<JavaMailSender> mailSender;
  private final String from;

  public EmailActivitiesImpl(
      ObjectProvider<JavaMailSender> mailSender,
      @Value("${crm.mail.from:automation@crmflow.local}") String from) {
    this.mailSender = mailSender;
    this.from = from;
  }

  @Override
  public EmailReceipt send(EmailMessage message) {
    InternetAddress to = address(message.to());
    JavaMailSender sender = mailSender.getIfAvailable();
    if (sender == null) {
      log.info(
          "No SMTP configured: captured email {} to {} ({})",
          message.messageId(),
          message.to(),
          message.subject());
      return new EmailReceipt(EmailReceipt.CAPTURED, message.messageId());
    }
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
      // JavaMailSender keeps a Message-ID set before send (saveChanges would replace it)
      mime.setHeader("Message-ID", message.messageId());
      sender.send(mime);
    } catch (MessagingException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          "could not build the email: " + e.getMessage(), INVALID_ADDRESS);
    }
    return new EmailReceipt(EmailReceipt.SENT, message.messageId());
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
