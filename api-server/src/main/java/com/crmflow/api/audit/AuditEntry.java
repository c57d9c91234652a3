package com.crmflow.api.audit;

import java.time.OffsetDateTime;
import java.util.UUID;

/** One audited mutating call; status is null only while it is being answered. */
public record AuditEntry(
    long id,
    UUID tenantId,
    UUID apiKeyId,
    String actor,
    String method,
    String path,
    Integer status,
    OffsetDateTime createdAt) {}
