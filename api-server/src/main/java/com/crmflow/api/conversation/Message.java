package com.crmflow.api.conversation;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.UUID;

public record Message(
    UUID id,
    UUID conversationId,
    @Schema(allowableValues = {"inbound", "outbound"}) String direction,
    String content,
    OffsetDateTime createdAt) {}
