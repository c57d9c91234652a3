package com.crmflow.workflow.action;

import java.util.Map;

/**
 * What an email node needs from the CRM just before it sends: the contact as it is now (null when
 * the run has none) and the parts of the email template (null when the node names none).
 */
public record EmailContext(
    Map<String, Object> contact, String subject, String textBody, String htmlBody) {}
