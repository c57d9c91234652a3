package com.crmflow.api.conversation;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Cursor;
import com.crmflow.api.web.LargeLists;
import com.crmflow.api.web.Paging;
import com.crmflow.api.web.TenantRowCounts;
import com.crmflow.api.web.TenantRowCounts.CountedTable;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@RequestMapping("/api/v1/conversations")
class ConversationController {

  private final ConversationRepository conversations;
  private final ConversationService service;
  private final TenantRowCounts rowCounts;

  ConversationController(
      ConversationRepository conversations,
      ConversationService service,
      TenantRowCounts rowCounts) {
    this.conversations = conversations;
    this.service = service;
    this.rowCounts = rowCounts;
  }

  /**
   * {@code {conversations, total, total_exact, limit, offset, next_after}}, most recent activity
   * first (see {@link LargeLists}).
   */
  @GetMapping
  @RequiresScope(Scope.CONVERSATIONS_READ)
  ConversationPage list(
      Caller caller,
      @RequestParam(name = "contact_id", required = false) UUID contactId,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset,
      @RequestParam(required = false) String after) {
    LargeLists.Request request = LargeLists.Request.of(limit, offset, after);
    return ConversationPage.of(
        LargeLists.page(
            conversations.list(
                caller.tenantId(), contactId, request.after(), request.limit(), request.offset()),
            contactId == null
                ? LargeLists.Total.exact(
                    rowCounts.count(caller.tenantId(), CountedTable.CONVERSATION))
                : LargeLists.Total.counted(
                    conversations.countUpTo(caller.tenantId(), contactId, LargeLists.TOTAL_CAP + 1),
                    LargeLists.TOTAL_CAP),
            request,
            c -> new Cursor(c.lastActivityAt(), c.id())));
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.CONVERSATIONS_READ)
  ConversationAnswer get(Caller caller, @PathVariable UUID id) {
    return new ConversationAnswer(find(caller, id));
  }

  /** {@code {messages}}, oldest first. */
  @GetMapping("/{id}/messages")
  @RequiresScope(Scope.CONVERSATIONS_READ)
  MessageList messages(
      Caller caller,
      @PathVariable UUID id,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    find(caller, id);
    Paging paging = Paging.of(limit, offset);
    return new MessageList(
        conversations.messages(caller.tenantId(), id, paging.limit(), paging.offset()));
  }

  /** 201 {@code {conversation_id}}, also when a message was appended to an existing one. */
  @PostMapping
  @RequiresScope(Scope.CONVERSATIONS_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  ConversationCreated post(Caller caller, @RequestBody JsonNode body) {
    return new ConversationCreated(service.post(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  @PatchMapping("/{id}")
  @RequiresScope(Scope.CONVERSATIONS_WRITE)
  ConversationAnswer patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return new ConversationAnswer(
        service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)));
  }

  private Conversation find(Caller caller, UUID id) {
    return conversations
        .find(caller.tenantId(), id)
        .orElseThrow(() -> ApiException.notFound("Conversation", id));
  }

  /** {@code {conversation}}. */
  record ConversationAnswer(Conversation conversation) {}

  /** {@code {messages}}. */
  record MessageList(List<Message> messages) {}

  /** {@code {conversation_id}}. */
  record ConversationCreated(UUID conversationId) {}

  /** A page of conversations (see {@link LargeLists}). */
  record ConversationPage(
      List<Conversation> conversations,
      long total,
      boolean totalExact,
      int limit,
      int offset,
      String nextAfter) {

    static ConversationPage of(LargeLists.Page<Conversation> page) {
      return new ConversationPage(
          page.rows(),
          page.total(),
          page.totalExact(),
          page.limit(),
          page.offset(),
          page.nextAfter());
    }
  }
}
