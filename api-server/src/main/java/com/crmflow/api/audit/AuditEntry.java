package com.crmflow.api.audit;

import java.time.OffsetDateTime;
import java.util.UUID;

/** One audited mutating call. */
public record AuditEntry(
    long id,
    UUID tenantId,
    UUID apiKeyId,
    String actor,
    String method,
    String path,
    int status,
    OffsetDateTime createdAt) {}
