package com.crmflow.api.task;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.UUID;

public record Task(
    UUID id,
    String title,
    String description,
    LocalDate dueDate,
    @Schema(allowableValues = {"open", "completed", "cancelled"}) String status,
    UUID contactId,
    UUID opportunityId,
    UUID accountId,
    OffsetDateTime completedAt,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt) {}
