package com.crmflow.api.outboundemail;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.UUID;

/** An email an automation sent or captured. */
public record OutboundEmail(
    UUID id,
    UUID runId,
    String nodeId,
    String messageId,
    String toAddress,
    String subject,
    String textBody,
    String htmlBody,
    @Schema(allowableValues = {"sent", "captured", "unknown"}) String status,
    OffsetDateTime createdAt) {}
