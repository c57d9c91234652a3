package com.crmflow.api.customfield;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** A tenant's definition of a custom field on one object type. */
public record CustomField(
    UUID id,
    String objectType,
    String fieldKey,
    String fieldLabel,
    String fieldType,
    List<String> options,
    boolean isRequired,
    String section,
    String description,
    OffsetDateTime createdAt) {}
