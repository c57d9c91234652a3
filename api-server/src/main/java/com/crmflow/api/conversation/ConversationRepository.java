package com.crmflow.api.conversation;

import com.crmflow.api.recordfield.SqlAssignments;
import com.crmflow.api.web.Cursor;
import com.crmflow.api.web.LargeLists;
import java.sql.Array;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class ConversationRepository {

  private static final String COLUMNS =
      """
      id, contact_id, channel, subject, status, override_status, starred, tags,
      last_activity_at, created_at
      """;

  private static final RowMapper<Conversation> CONVERSATION =
      (rs, row) ->
          new Conversation(
              rs.getObject("id", UUID.class),
              rs.getObject("contact_id", UUID.class),
              rs.getString("channel"),
              rs.getString("subject"),
              rs.getString("status"),
              rs.getString("override_status"),
              rs.getBoolean("starred"),
              strings(rs.getArray("tags")),
              rs.getObject("last_activity_at", OffsetDateTime.class),
              rs.getObject("created_at", OffsetDateTime.class));

  private static final RowMapper<Message> MESSAGE =
      (rs, row) ->
          new Message(
              rs.getObject("id", UUID.class),
              rs.getObject("conversation_id", UUID.class),
              rs.getString("direction"),
              rs.getString("content"),
              rs.getObject("created_at", OffsetDateTime.class));

  private final JdbcClient jdbc;

  ConversationRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  Conversation insert(UUID tenantId, UUID contactId, String channel, String subject) {
    return jdbc.sql(
            """
            insert into conversation (id, tenant_id, contact_id, channel, subject)
            values (:id, :tenantId, :contactId, :channel, :subject)
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("contactId", contactId)
        .param("channel", channel)
        .param("subject", subject)
        .query(CONVERSATION)
        .single();
  }

  Optional<Conversation> find(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from conversation where tenant_id = :tenantId and id = :id"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(CONVERSATION)
        .optional();
  }

  Optional<Conversation> lock(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from conversation where tenant_id = :tenantId and id = :id for update"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(CONVERSATION)
        .optional();
  }

  Conversation update(UUID tenantId, UUID id, Map<String, Object> fields) {
    return jdbc.sql(
            """
            update conversation set %s
            where tenant_id = :tenantId and id = :id
            returning %s
            """
                .formatted(SqlAssignments.set(fields.keySet()), COLUMNS))
        .params(fields)
        .param("tenantId", tenantId)
        .param("id", id)
        .query(CONVERSATION)
        .single();
  }

  /** Adds a message and moves the conversation's last_activity_at to it. */
  Message addMessage(UUID tenantId, UUID conversationId, String direction, String content) {
    Message message =
        jdbc.sql(
                """
                insert into message (id, tenant_id, conversation_id, direction, content)
                values (:id, :tenantId, :conversationId, :direction, :content)
                returning id, conversation_id, direction, content, created_at
                """)
            .param("id", UUID.randomUUID())
            .param("tenantId", tenantId)
            .param("conversationId", conversationId)
            .param("direction", direction)
            .param("content", content)
            .query(MESSAGE)
            .single();
    jdbc.sql(
            """
            update conversation set last_activity_at = greatest(last_activity_at, :at)
            where tenant_id = :tenantId and id = :id
            """)
        .param("at", message.createdAt())
        .param("tenantId", tenantId)
        .param("id", conversationId)
        .update();
    return message;
  }

  /** Most recent activity first (ties broken by id), after a cursor or from an offset. */
  List<Conversation> list(UUID tenantId, UUID contactId, Cursor after, int limit, int offset) {
    return jdbc.sql(
            LargeLists.pageQuery(
                COLUMNS,
                "conversation",
                "tenant_id = :tenantId"
                    + (contactId == null ? "" : " and contact_id = :contactId")
                    + (after == null ? "" : " and (last_activity_at, id) < (:afterAt, :afterId)"),
                "last_activity_at desc, id desc",
                offset))
        .param("tenantId", tenantId)
        .param("contactId", contactId)
        .param("afterAt", after == null ? null : after.at())
        .param("afterId", after == null ? null : after.id())
        .param("limit", limit)
        .param("offset", offset)
        .query(CONVERSATION)
        .list();
  }

  /** The conversations (of a contact), counted up to {@code cap}. */
  long countUpTo(UUID tenantId, UUID contactId, int cap) {
    return jdbc.sql(
            """
            select count(*) from (
              select 1 from conversation where tenant_id = :tenantId %s limit :cap) counted
            """
                .formatted(contactId == null ? "" : "and contact_id = :contactId"))
        .param("tenantId", tenantId)
        .param("contactId", contactId)
        .param("cap", cap)
        .query(Long.class)
        .single();
  }

  /** Oldest first, as a conversation is read. */
  List<Message> messages(UUID tenantId, UUID conversationId, int limit, int offset) {
    return jdbc.sql(
            """
            select id, conversation_id, direction, content, created_at from message
            where tenant_id = :tenantId and conversation_id = :conversationId
            order by created_at, id
            limit :limit offset :offset
            """)
        .param("tenantId", tenantId)
        .param("conversationId", conversationId)
        .param("limit", limit)
        .param("offset", offset)
        .query(MESSAGE)
        .list();
  }

  private static List<String> strings(Array array) throws SQLException {
    return array == null ? List.of() : List.of((String[]) array.getArray());
  }
}
