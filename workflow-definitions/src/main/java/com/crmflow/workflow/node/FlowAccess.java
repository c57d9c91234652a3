package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.template.TemplateReference;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a canvas reads and writes, from its nodes' config as the node types read it when they run:
 * the variables read (every {@code {{…}}} of {@link TemplateReference#VARIABLE} in any config
 * value, nested maps and lists included, and the paths data_transform looks up as they are: a
 * filter's {@code source}, a merge's {@code sources}), the CRM record types read and written, and
 * whether the flow posts to chat. api-server derives the scopes a flow needs from it, and gives a
 * run its contact only when the flow reads the contact.
 *
 * <p>A record type is read when a node reads it: {@code contact} through the variable {@code
 * contact} (bare {@code {{contact}}} or any field of it) or an email (it goes to the run's contact
 * and renders its fields); a crm_event_trigger's event record ({@code opportunity} of {@code
 * opportunity.created}); and the record a crm_update or create_record answers with, whenever its
 * {@code crm_update_<n>} or {@code create_record_<n>} variable is read (every entityType of that
 * node type counts, since the ordinal names the n-th node run, not a node of the canvas).
 *
 * <p>An email's stored template is not part of the canvas and is not analysed: it renders against
 * {@code contact} and {@code trigger} only ({@code EmailNode}), which the email is already counted
 * for.
 *
 * @param variablesRead the variables' sources: {@code trigger}, {@code contact}, {@code
 *     http_request_1}, ...
 * @param recordsRead record types whose data the flow reads: contact, account, opportunity, note,
 *     task, or an event's record type (conversation, sequence, meeting, call)
 * @param recordsWritten record types that crm_update and create_record nodes write
 * @param postsToChat whether a chat_message node posts through the tenant's chat integration
 */
public record FlowAccess(
    Set<String> variablesRead,
    Set<String> recordsRead,
    Set<String> recordsWritten,
    boolean postsToChat) {

  public static final String CONTACT = "contact";

  /** The variable of the run's trigger payload. */
  public static final String TRIGGER = "trigger";

  /**
   * The analysis of the canvas (every node, reachable or not): each node reads and writes what its
   * type's {@link NodeAccess} declares.
   */
  public static FlowAccess of(Canvas canvas, NodeCatalog catalog) {
    Set<String> variables = new TreeSet<>();
    Set<String> read = new TreeSet<>();
    Set<String> written = new TreeSet<>();
    boolean chat = false;
    for (CanvasNode node : canvas.nodes()) {
      Map<String, Object> config =
          node.data() == null || node.data().config() == null ? Map.of() : node.data().config();
      for (String text : strings(config)) {
        TemplateReference.in(text).forEach(reference -> variables.add(reference.source()));
      }
      for (String path : pathsLookedUp(node, catalog)) {
        variables.add(TemplateResolver.sourceOf(path));
      }
      NodeAccess access =
          catalog.find(node.type()).map(type -> type.accessOf(node)).orElse(NodeAccess.NONE);
      read.addAll(records(node, access.reads()));
      for (String target : records(node, access.writes())) {
        if (NodeAccess.CHAT.equals(target)) {
          chat = true;
        } else {
          written.add(target);
        }
      }
    }
    if (variables.contains(CONTACT)) {
      read.add(CONTACT);
    }
    for (String variable : variables) {
      // a node's output holds what it wrote: reading it reads those record types
      String writer = new TemplateReference(variable, variable, List.of()).nodeType();
      List<String> writes =
          writer == null
              ? List.of()
              : catalog.descriptor(writer).map(d -> d.access().writes()).orElse(List.of());
      if (writes.isEmpty()) {
        continue;
      }
      for (CanvasNode node : canvas.nodes()) {
        if (writer.equals(node.type())) {
          records(node, writes).stream()
              .filter(target -> !NodeAccess.CHAT.equals(target))
              .forEach(read::add);
        }
      }
    }
    return new FlowAccess(Set.copyOf(variables), Set.copyOf(read), Set.copyOf(written), chat);
  }

  /**
   * The record types whose data each node's log entry (its input, output and error) can hold, by
   * node id: what the node reads and writes itself, and what the variables it reads hold: {@code
   * contact} the contact, {@code trigger} what the run's payload holds (the record of each
   * crm_event_trigger's event, and {@code payloadHolds}), and {@code <type>_<n>} what the nodes of
   * that type hold (every one of them: the ordinal names the n-th node run, not a node of the
   * canvas), up to what those read in turn. An email renders its stored template against the
   * trigger too. A trigger's entry holds the payload's records.
   *
   * @param payloadHolds record types the run's payload holds beyond the event records (an
   *     enrollment's contact)
   */
  public static Map<String, Set<String>> heldByNode(
      Canvas canvas, NodeCatalog catalog, Set<String> payloadHolds) {
    Set<String> payload = new TreeSet<>(payloadHolds);
    Map<String, Set<String>> held = new LinkedHashMap<>();
    Map<String, Set<String>> sources = new LinkedHashMap<>();
    for (CanvasNode node : canvas.nodes()) {
      NodeAccess access =
          catalog.descriptor(node.type()).map(NodeDescriptor::access).orElse(NodeAccess.NONE);
      Set<String> own = new TreeSet<>(records(node, access.reads()));
      own.addAll(records(node, access.writes()));
      own.remove(NodeAccess.CHAT);
      held.put(node.id(), own);
      if (catalog.isTrigger(node.type())) {
        payload.addAll(own);
      }
      Set<String> read = new TreeSet<>();
      Map<String, Object> config =
          node.data() == null || node.data().config() == null ? Map.of() : node.data().config();
      for (String text : strings(config)) {
        TemplateReference.in(text).forEach(reference -> read.add(reference.source()));
      }
      for (String path : pathsLookedUp(node, catalog)) {
        read.add(TemplateResolver.sourceOf(path));
      }
      catalog.find(node.type()).ifPresent(type -> read.addAll(type.variablesReadUnnamed(node)));
      sources.put(node.id(), read);
    }
    for (CanvasNode node : canvas.nodes()) {
      if (catalog.isTrigger(node.type())) {
        held.get(node.id()).addAll(payload);
      }
    }
    boolean grew = true;
    while (grew) {
      grew = false;
      for (CanvasNode node : canvas.nodes()) {
        Set<String> into = held.get(node.id());
        for (String source : sources.get(node.id())) {
          if (CONTACT.equals(source)) {
            grew |= into.add(CONTACT);
          } else if (TRIGGER.equals(source)) {
            grew |= into.addAll(payload);
          } else {
            String writer = new TemplateReference(source, source, List.of()).nodeType();
            for (CanvasNode other : canvas.nodes()) {
              if (writer != null && writer.equals(other.type())) {
                grew |= into.addAll(held.get(other.id()));
              }
            }
          }
        }
      }
    }
    Map<String, Set<String>> answer = new LinkedHashMap<>();
    held.forEach((id, records) -> answer.put(id, Set.copyOf(records)));
    return answer;
  }

  /** The record types of these access entries for this node ({@code {field}} resolved). */
  private static List<String> records(CanvasNode node, List<String> entries) {
    List<String> out = new ArrayList<>();
    for (String entry : entries) {
      String field = NodeAccess.fieldOf(entry);
      if (field == null) {
        out.add(entry);
      } else if (node.config(field) instanceof String value && !value.isBlank()) {
        out.add(value.contains(".") ? value.substring(0, value.indexOf('.')) : value);
      }
    }
    return out;
  }

  /** Whether a run of the flow reads its contact's data (and so is given the contact). */
  public boolean readsContact() {
    return recordsRead.contains(CONTACT);
  }

  /**
   * The record types whose data a run of the flow can hold in its variables and node log: those it
   * reads and those it writes (a write answers with the record written).
   */
  public Set<String> recordsHeld() {
    Set<String> held = new TreeSet<>(recordsRead);
    held.addAll(recordsWritten);
    return Set.copyOf(held);
  }

  /**
   * The paths the node's type looks up beside its templates ({@link NodeExecutor#pathsLookedUp}).
   */
  public static List<String> pathsLookedUp(CanvasNode node, NodeCatalog catalog) {
    return catalog.find(node.type()).map(type -> type.pathsLookedUp(node)).orElse(List.of());
  }

  /** Every string in a config value, inside maps and lists too. */
  public static List<String> strings(Object value) {
    List<String> out = new ArrayList<>();
    if (value instanceof String s) {
      out.add(s);
    } else if (value instanceof Map<?, ?> map) {
      map.values().forEach(v -> out.addAll(strings(v)));
    } else if (value instanceof Collection<?> list) {
      list.forEach(v -> out.addAll(strings(v)));
    }
    return out;
  }
}
