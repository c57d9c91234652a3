package com.crmflow.api.emailtemplate;

import java.time.OffsetDateTime;
import java.util.UUID;

/** Subject and bodies with template variables such as {@code {{contact.first_name}}}. */
public record EmailTemplate(
    UUID id,
    String name,
    String subject,
    String htmlBody,
    String textBody,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt) {}
