package com.crmflow.api.account;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

public record Account(
    UUID id,
    String name,
    String domain,
    String industry,
    Map<String, Object> customFields,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt) {}
