package com.crmflow.api.flow;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.Scope;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.node.NodeCatalog;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The scopes a flow acts with, which the key that activates it (or changes it while it is active)
 * must hold: an automation never does what its author's key could not do itself. They come from
 * {@link FlowAccess}, the analysis of what the canvas reads and writes as its nodes' types declare
 * ({@code NodeDescriptor#access}): writing a record type (crm_update, create_record) needs its
 * write scope; reading one needs its read scope (a crm_event_trigger's event record, an email's
 * contact, any template or data_transform path that reads {@code contact}, bare or a field of it,
 * and a write node's answer when it is read); a chat_message posts through the tenant's chat
 * integration. What a flow sends out (http_request) is what it could read. The key that activates a
 * flow, changes it while active, retries its run or enrolls a contact in it must hold them.
 */
public final class FlowScopes {

  private static final Map<String, Scope> WRITE =
      Map.of(
          "contact", Scope.CONTACTS_WRITE,
          "account", Scope.ACCOUNTS_WRITE,
          "opportunity", Scope.OPPORTUNITIES_WRITE,
          "note", Scope.NOTES_WRITE,
          "task", Scope.TASKS_WRITE);

  /** By record type (an event's: contact.created → contact → contacts:read). */
  private static final Map<String, Scope> READ =
      Map.of(
          "contact", Scope.CONTACTS_READ,
          "account", Scope.ACCOUNTS_READ,
          "opportunity", Scope.OPPORTUNITIES_READ,
          "note", Scope.NOTES_READ,
          "task", Scope.TASKS_READ,
          "conversation", Scope.CONVERSATIONS_READ,
          "sequence", Scope.SEQUENCES_READ,
          "meeting", Scope.CONTACTS_READ,
          "call", Scope.CONTACTS_READ);

  private FlowScopes() {}

  /** The scopes the canvas's nodes act with, as their types' descriptors declare. */
  public static Set<Scope> of(Canvas canvas, NodeCatalog catalog) {
    FlowAccess access = FlowAccess.of(canvas, catalog);
    Set<Scope> needed = EnumSet.noneOf(Scope.class);
    access.recordsWritten().stream().map(WRITE::get).filter(Objects::nonNull).forEach(needed::add);
    access.recordsRead().stream().map(READ::get).filter(Objects::nonNull).forEach(needed::add);
    if (access.postsToChat()) {
      needed.add(Scope.INTEGRATIONS_WRITE);
    }
    return needed;
  }

  /**
   * The read scope of a record type (contact → contacts:read), or null for one it does not know.
   */
  public static Scope readScopeOf(String recordType) {
    return READ.get(recordType);
  }

  /**
   * @throws ApiException 403 naming the scopes the caller's key lacks
   */
  public static void requireHeldBy(Caller caller, Canvas canvas, String what, NodeCatalog catalog) {
    Set<String> missing = new TreeSet<>();
    for (Scope scope : of(canvas, catalog)) {
      if (!caller.has(scope)) {
        missing.add(scope.value());
      }
    }
    if (!missing.isEmpty()) {
      throw ApiException.forbidden(
          what
              + " needs the scopes its nodes act with; this API key lacks "
              + String.join(", ", missing)
              + ".");
    }
  }

  /**
   * A webhook subscription sends each event's record out (a contact.created delivery carries the
   * contact): subscribing to an event needs the read scope of its record type, as an automation on
   * that event does. Names that are not events are left to the body's own checks.
   *
   * @throws ApiException 403 naming the scopes the caller's key lacks
   */
  public static void requireReadsEvents(Caller caller, Iterable<String> events) {
    Set<String> missing = new TreeSet<>();
    for (String event : events) {
      Scope scope = READ.get(event.contains(".") ? event.substring(0, event.indexOf('.')) : event);
      if (scope != null && !caller.has(scope)) {
        missing.add(scope.value());
      }
    }
    if (!missing.isEmpty()) {
      throw ApiException.forbidden(
          "A subscription sends the records of its events; this API key lacks "
              + String.join(", ", missing)
              + ".");
    }
  }
}
