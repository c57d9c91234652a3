package com.crmflow.api.task;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.UUID;

public record Task(
    UUID id,
    String title,
    String description,
    LocalDate dueDate,
    String status,
    UUID contactId,
    UUID opportunityId,
    UUID accountId,
    OffsetDateTime completedAt,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt) {}
