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
    OffsetDateTime createdAt) {

  /** The email without its address, subject and bodies: for a key without contacts:read. */
  OutboundEmail withoutContent() {
    return new OutboundEmail(
        id, runId, nodeId, messageId, null, null, null, null, status, createdAt);
  }
}
