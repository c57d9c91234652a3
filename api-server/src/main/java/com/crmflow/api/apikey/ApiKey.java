package com.crmflow.api.apikey;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** An API key as listed: never the key itself, only its prefix. */
public record ApiKey(
    UUID id,
    UUID tenantId,
    String name,
    String prefix,
    List<String> scopes,
    Integer rateLimitPerMinute,
    OffsetDateTime createdAt,
    OffsetDateTime lastUsedAt,
    OffsetDateTime revokedAt) {}
