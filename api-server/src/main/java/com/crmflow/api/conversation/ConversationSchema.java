package com.crmflow.api.conversation;

import com.crmflow.api.recordfield.FieldKind;
import com.crmflow.api.recordfield.FieldSpec;
import com.crmflow.api.recordfield.RecordSchema;
import java.util.List;

/**
 * Conversation fields. status: active, pending, closed, archived. override_status: ai_active (an AI
 * agent answers), human_active (a human has taken over: emits conversation.override), paused.
 */
public final class ConversationSchema {

  public static final List<String> CHANNELS = List.of("email", "sms", "chat", "whatsapp");
  public static final List<String> DIRECTIONS = List.of("inbound", "outbound");
  public static final List<String> STATUSES = List.of("active", "pending", "closed", "archived");
  public static final List<String> OVERRIDE_STATUSES =
      List.of("ai_active", "human_active", "paused");

  /** The override status that means a human has taken the conversation over. */
  public static final String HUMAN_TAKEOVER = "human_active";

  /** POST /conversations: a new conversation, or a message appended to one. */
  public static final RecordSchema CREATE =
      new RecordSchema(
          "conversation",
          List.of(
              FieldSpec.of("contact_id", FieldKind.UUID).required(),
              FieldSpec.oneOf("channel", CHANNELS),
              FieldSpec.text("subject"),
              FieldSpec.longText("content"),
              FieldSpec.oneOf("direction", DIRECTIONS),
              FieldSpec.of("conversation_id", FieldKind.UUID)));

  /** PATCH /conversations/:id. */
  public static final RecordSchema UPDATE =
      new RecordSchema(
          "conversation",
          List.of(
              FieldSpec.text("subject"),
              FieldSpec.oneOf("status", STATUSES).notNull(),
              FieldSpec.oneOf("override_status", OVERRIDE_STATUSES).notNull(),
              FieldSpec.of("starred", FieldKind.BOOLEAN),
              FieldSpec.stringList("tags", 50, 50)));

  private ConversationSchema() {}
}
