package com.crmflow.api.note;

import java.time.OffsetDateTime;
import java.util.UUID;

public record Note(
    UUID id,
    String content,
    UUID contactId,
    UUID opportunityId,
    UUID accountId,
    OffsetDateTime createdAt) {}
