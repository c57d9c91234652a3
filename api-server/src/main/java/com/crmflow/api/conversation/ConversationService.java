package com.crmflow.api.conversation;

import com.crmflow.api.contact.ContactRepository;
import com.crmflow.api.event.EventOutbox;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.event.EventNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

@Service
class ConversationService {

  private final ConversationRepository conversations;
  private final ContactRepository contacts;
  private final EventOutbox events;

  ConversationService(
      ConversationRepository conversations, ContactRepository contacts, EventOutbox events) {
    this.conversations = conversations;
    this.contacts = contacts;
    this.events = events;
  }

  /**
   * POST /conversations: with conversation_id, appends the message to that conversation (which must
   * belong to contact_id); without, starts a conversation (conversation.created). content creates a
   * message either way.
   *
   * @return the conversation's id
   */
  @Transactional
  UUID post(UUID tenantId, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = ConversationSchema.CREATE.validate(body, true, Set.of(), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    UUID contactId = (UUID) fields.get("contact_id");
    if (!contacts.exists(tenantId, contactId)) {
      throw ApiException.unprocessable(
          "contact_id refers to no contact of this tenant.",
          List.of(new FieldProblem("contact_id", "no contact with id " + contactId)));
    }
    String content = (String) fields.get("content");
    String direction = Objects.requireNonNullElse((String) fields.get("direction"), "inbound");
    UUID requestedConversation = (UUID) fields.get("conversation_id");
    UUID conversationId;
    String channel;
    if (requestedConversation != null) {
      conversationId = requestedConversation;
      Conversation existing =
          conversations
              .lock(tenantId, requestedConversation)
              .orElseThrow(
                  () ->
                      ApiException.unprocessable(
                          "conversation_id refers to no conversation of this tenant.",
                          List.of(
                              new FieldProblem(
                                  "conversation_id",
                                  "no conversation with id " + requestedConversation))));
      if (!existing.contactId().equals(contactId)) {
        throw ApiException.unprocessable(
            "The conversation belongs to another contact.",
            List.of(
                new FieldProblem("conversation_id", "belongs to contact " + existing.contactId())));
      }
      channel = existing.channel();
    } else {
      channel = Objects.requireNonNullElse((String) fields.get("channel"), "email");
      Conversation created =
          conversations.insert(tenantId, contactId, channel, (String) fields.get("subject"));
      conversationId = created.id();
      events.emit(tenantId, EventNames.CONVERSATION_CREATED, created.asEventData());
    }
    if (content != null) {
      Message message = conversations.addMessage(tenantId, conversationId, direction, content);
      if ("inbound".equals(direction)) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("conversation_id", conversationId.toString());
        data.put("contact_id", contactId.toString());
        data.put("message_id", message.id().toString());
        data.put("channel", channel);
        data.put("direction", direction);
        data.put("content", content);
        events.emit(tenantId, EventNames.CONVERSATION_MESSAGE_RECEIVED, data);
      }
    }
    return conversationId;
  }

  /** PATCH: status, override_status, starred, tags, subject. */
  @Transactional
  Conversation patch(UUID tenantId, UUID id, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields =
        ConversationSchema.UPDATE.validate(body, false, Set.of(), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    Conversation existing =
        conversations
            .lock(tenantId, id)
            .orElseThrow(() -> ApiException.notFound("Conversation", id));
    if (fields.isEmpty()) {
      return existing;
    }
    Conversation updated = conversations.update(tenantId, id, fields);
    boolean handedToHuman =
        ConversationSchema.HUMAN_TAKEOVER.equals(updated.overrideStatus())
            && !ConversationSchema.HUMAN_TAKEOVER.equals(existing.overrideStatus());
    if (handedToHuman) {
      Map<String, Object> data = new LinkedHashMap<>(updated.asEventData());
      data.put("previous_override_status", existing.overrideStatus());
      events.emit(tenantId, EventNames.CONVERSATION_OVERRIDE, data);
    }
    return updated;
  }
}
