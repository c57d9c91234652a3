package com.crmflow.api.outboundemail;

import com.crmflow.api.contact.ContactRepository;
import com.crmflow.api.emailtemplate.EmailTemplate;
import com.crmflow.api.emailtemplate.EmailTemplateRepository;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.action.EmailContext;
import com.crmflow.workflow.action.EmailMessage;
import io.temporal.failure.ApplicationFailure;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** The CRM side of email nodes (task queue crm): contact and template before, booking after. */
@Component("emailBookActivities")
class EmailBookActivitiesImpl implements EmailBookActivities {

  private static final Logger log = LoggerFactory.getLogger(EmailBookActivitiesImpl.class);

  private final ContactRepository contacts;
  private final EmailTemplateRepository templates;
  private final OutboundEmailRepository emails;

  EmailBookActivitiesImpl(
      ContactRepository contacts,
      EmailTemplateRepository templates,
      OutboundEmailRepository emails) {
    this.contacts = contacts;
    this.templates = templates;
    this.emails = emails;
  }

  @Override
  public EmailContext context(String tenantId, String contactId, String templateId) {
    UUID tenant = UUID.fromString(tenantId);
    Map<String, Object> contact = null;
    if (contactId != null) {
      contact =
          contacts
              .find(tenant, uuid(contactId, "contact"))
              .map(c -> (Map<String, Object>) new LinkedHashMap<>(c.asEventData()))
              .orElse(null);
    }
    if (templateId == null) {
      return new EmailContext(contact, null, null, null);
    }
    EmailTemplate template =
        templates
            .find(tenant, uuid(templateId, "email template"))
            .orElseThrow(() -> notFound("email template " + templateId + " does not exist"));
    return new EmailContext(contact, template.subject(), template.textBody(), template.htmlBody());
  }

  @Override
  public void record(
      String tenantId, String runId, String nodeId, EmailMessage message, String status) {
    emails.insertOnce(UUID.fromString(tenantId), UUID.fromString(runId), nodeId, message, status);
    // the address and the rendered text are the tenant's data: the outbound email API shows them
    log.info("Email {} of run {} {}", message.messageId(), runId, status);
  }

  private static UUID uuid(String value, String what) {
    try {
      return UUID.fromString(value);
    } catch (IllegalArgumentException e) {
      throw notFound(what + " id " + value + " is not a uuid");
    }
  }

  private static ApplicationFailure notFound(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, NOT_FOUND);
  }
}
