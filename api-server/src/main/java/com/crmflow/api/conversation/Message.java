package com.crmflow.api.conversation;

import java.time.OffsetDateTime;
import java.util.UUID;

public record Message(
    UUID id, UUID conversationId, String direction, String content, OffsetDateTime createdAt) {}
