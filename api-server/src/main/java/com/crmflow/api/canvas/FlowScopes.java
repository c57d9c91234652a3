package com.crmflow.api.canvas;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The scopes a flow acts with, which the key that activates it (or changes it while it is active)
 * must hold: an automation never does what its author's key could not do itself. Writing a record
 * (crm_update, create_record) needs that record type's write scope; reading CRM data needs its read
 * scope: a crm_event_trigger receives the record of its event, an email goes to the run's contact,
 * and any template that reads {@code {{contact.…}}} reads the contact; a chat_message posts through
 * the tenant's chat integration. What a flow sends out (http_request) is what it could read.
 */
public final class FlowScopes {

  private static final Map<String, Scope> WRITE =
      Map.of(
          "contact", Scope.CONTACTS_WRITE,
          "account", Scope.ACCOUNTS_WRITE,
          "opportunity", Scope.OPPORTUNITIES_WRITE,
          "note", Scope.NOTES_WRITE,
          "task", Scope.TASKS_WRITE);

  /** By the event name's record type: contact.created → contacts:read. */
  private static final Map<String, Scope> EVENT_READ =
      Map.of(
          "contact", Scope.CONTACTS_READ,
          "opportunity", Scope.OPPORTUNITIES_READ,
          "conversation", Scope.CONVERSATIONS_READ,
          "sequence", Scope.SEQUENCES_READ,
          "meeting", Scope.CONTACTS_READ,
          "call", Scope.CONTACTS_READ);

  private FlowScopes() {}

  /** The scopes the canvas's nodes act with. */
  public static Set<Scope> of(Canvas canvas) {
    Set<Scope> needed = EnumSet.noneOf(Scope.class);
    for (CanvasNode node : canvas.nodes()) {
      String type = node.type();
      if (NodeType.CRM_UPDATE.value().equals(type) || NodeType.CREATE_RECORD.value().equals(type)) {
        Scope scope = WRITE.get(String.valueOf(node.config("entityType")));
        if (scope != null) {
          needed.add(scope);
        }
      } else if (NodeType.CRM_EVENT_TRIGGER.value().equals(type)) {
        String event = String.valueOf(node.config("eventType"));
        Scope scope =
            EVENT_READ.get(event.contains(".") ? event.substring(0, event.indexOf('.')) : event);
        if (scope != null) {
          needed.add(scope);
        }
      } else if (NodeType.EMAIL.value().equals(type)) {
        needed.add(Scope.CONTACTS_READ);
      } else if (NodeType.CHAT_MESSAGE.value().equals(type)) {
        needed.add(Scope.INTEGRATIONS_WRITE);
      }
      if (node.data() != null && String.valueOf(node.data().config()).contains("{{contact.")) {
        needed.add(Scope.CONTACTS_READ);
      }
    }
    return needed;
  }

  /**
   * @throws ApiException 403 naming the scopes the caller's key lacks
   */
  public static void requireHeldBy(Caller caller, Canvas canvas, String what) {
    Set<String> missing = new TreeSet<>();
    for (Scope scope : of(canvas)) {
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
}
