package com.crmflow.api.conversation;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

public record Conversation(
    UUID id,
    UUID contactId,
    @Schema(allowableValues = {"email", "sms", "chat", "whatsapp"}) String channel,
    String subject,
    @Schema(allowableValues = {"active", "pending", "closed", "archived"}) String status,
    @Schema(allowableValues = {"ai_active", "human_active", "paused"}) String overrideStatus,
    boolean starred,
    List<String> tags,
    OffsetDateTime lastActivityAt,
    OffsetDateTime createdAt) {

  public Map<String, Object> asEventData() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("conversation_id", id.toString());
    data.put("contact_id", contactId.toString());
    data.put("channel", channel);
    data.put("subject", subject);
    data.put("status", status);
    data.put("override_status", overrideStatus);
    data.put("starred", starred);
    data.put("tags", tags);
    return data;
  }
}
