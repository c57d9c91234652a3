package com.crmflow.workflow.run;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.history.HistoryPayloads;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeSecrets;
import com.crmflow.workflow.template.TemplateReference;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a node ran with, as its log entry shows it: {@code {config, read}}.
 *
 * <ul>
 *   <li>{@code config}: the node's config with every {@code {{…}}} filled in against the run's
 *       variables as the node found them when it started (an http_request's {@code bodyTemplate}
 *       JSON-escaped, as it is sent), and each secret ({@link NodeSecrets}: a webhook_trigger's
 *       token, an http_request's credential headers) as {@link NodeSecrets#MASK}.
 *   <li>{@code read}: each variable the node read, by its path ({@code contact.email}, a
 *       data_transform's {@code http_request_1.body.items}), with its value; null when it had none.
 *       Variables read only inside a secret are not listed.
 * </ul>
 *
 * <p>An email reads the contact afresh and is shown with the contact it read; every other node is
 * shown with the contact it started with, also when an email beside it read a changed contact while
 * it ran ({@code InterpreterChanges#NODE_INPUT_CONTACT}). Workflow code: deterministic, free of
 * I/O.
 *
 * <p>Bounded: a string over {@link #STRING_CHARS} characters keeps its start and says how much was
 * cut, and an input still over {@link #LIMIT_BYTES} of JSON is logged as a note of its size, as an
 * output over {@link HistoryPayloads#LIMIT_BYTES} is.
 *
 * <p>Through the crm queue the entries are in history, and their sizes decide how a run's log is
 * cut into batches and workflow tasks: what this class produces (and what it reads to produce it:
 * the descriptors' secret fields, the template rendering, the limits here) is part of the
 * interpreter's commands, so a change to it is an interpreter change, asked with {@code since()}.
 */
public final class NodeInput {

  /** The characters a string of the input keeps. */
  static final int STRING_CHARS = 2000;

  /** The most JSON an entry's input may take (after cutting its strings). */
  static final int LIMIT_BYTES = 64 * 1024;

  /** The note logged in place of an input over {@link #LIMIT_BYTES}. */
  static final String OMITTED = "the input is too large to log: over the 64 KiB a log entry keeps";

  private NodeInput() {}

  /** The run's variables as the node starts (a shallow copy: values are never changed). */
  static Map<String, Object> variablesAtStart(Map<String, Object> scope) {
    return new HashMap<>(scope);
  }

  /**
   * Whether the run's contact changed while a node other than an email ran: an email beside it read
   * the contact afresh. Only then does {@code contactAsStarted} of {@link #of} make a difference.
   */
  static boolean contactChangedBeside(
      NodeCatalog catalog, CanvasNode node, Map<String, Object> atStart, Map<String, Object> now) {
    return !readsContactAfresh(catalog, node)
        && now.get(FlowAccess.CONTACT) != atStart.get(FlowAccess.CONTACT);
  }

  /**
   * The input of the node, or null for a trigger.
   *
   * @param catalog the run's node types (which of them are triggers)
   * @param atStart the variables when it started ({@link #variablesAtStart})
   * @param now the variables now, after it ran
   * @param contactAsStarted true: a node other than an email is shown with the contact it started
   *     with; false ({@code InterpreterChanges#NODE_INPUT_CONTACT} not taken): every node is shown
   *     with the contact as it is now
   */
  static Map<String, Object> of(
      NodeCatalog catalog,
      CanvasNode node,
      Map<String, Object> atStart,
      Map<String, Object> now,
      boolean contactAsStarted) {
    if (catalog.isTrigger(node.type())) {
      return null;
    }
    Map<String, Object> seen = atStart;
    boolean rereadsContact = readsContactAfresh(catalog, node) || !contactAsStarted;
    if (rereadsContact && now.get(FlowAccess.CONTACT) != atStart.get(FlowAccess.CONTACT)) {
      seen = new HashMap<>(atStart);
      seen.put(FlowAccess.CONTACT, now.get(FlowAccess.CONTACT));
    }
    Map<String, Object> config =
        node.data() == null || node.data().config() == null ? Map.of() : node.data().config();
    Map<String, Object> masked = NodeSecrets.masked(catalog, node.type(), config);
    Map<String, Object> resolved = new LinkedHashMap<>();
    NodeExecutor type = catalog.find(node.type()).orElse(null);
    for (Map.Entry<String, Object> field : masked.entrySet()) {
      Object value = field.getValue();
      resolved.put(
          field.getKey(),
          type != null && type.rendersAsJson(field.getKey()) && value instanceof String body
              ? TemplateResolver.render(body, seen, true)
              : TemplateResolver.renderValue(value, seen));
    }
    Map<String, Object> read = new LinkedHashMap<>();
    for (String text : FlowAccess.strings(masked)) {
      for (TemplateReference reference : TemplateReference.in(text)) {
        String path = reference.token().substring(2, reference.token().length() - 2).trim();
        read.put(path, TemplateResolver.lookup(seen, path));
      }
    }
    for (String path : FlowAccess.pathsLookedUp(node, catalog)) {
      read.put(path.trim(), TemplateResolver.lookup(seen, path));
    }
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("config", resolved);
    input.put("read", read);
    return bounded(input);
  }

  private static boolean readsContactAfresh(NodeCatalog catalog, CanvasNode node) {
    return catalog.find(node.type()).map(NodeExecutor::readsContactAfresh).orElse(false);
  }

  /** The input with long strings cut, or the note of its size when it is still too large. */
  static Map<String, Object> bounded(Map<String, Object> input) {
    long[] chars = {0};
    @SuppressWarnings("unchecked")
    Map<String, Object> cut = (Map<String, Object>) cut(input, chars);
    // the data converter is asked only when the text could come near the limit (a character
    // takes at most 6 bytes of JSON, as an escape)
    if (chars[0] * 6 <= LIMIT_BYTES) {
      return cut;
    }
    int bytes = HistoryPayloads.bytes(cut);
    if (bytes <= LIMIT_BYTES) {
      return cut;
    }
    Map<String, Object> note = new LinkedHashMap<>();
    note.put("omitted", OMITTED);
    note.put("bytes", bytes);
    return note;
  }

  /** A copy of the value with each string over {@link #STRING_CHARS} cut; counts the text. */
  private static Object cut(Object value, long[] chars) {
    if (value instanceof String s) {
      if (s.length() <= STRING_CHARS) {
        chars[0] += s.length();
        return s;
      }
      // never between the two halves of a surrogate pair
      int end =
          Character.isHighSurrogate(s.charAt(STRING_CHARS - 1)) ? STRING_CHARS - 1 : STRING_CHARS;
      chars[0] += end + 40;
      return s.substring(0, end) + "… (" + (s.length() - end) + " more characters)";
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            String key = String.valueOf(k);
            chars[0] += key.length() + 4;
            copy.put(key, cut(v, chars));
          });
      return copy;
    }
    if (value instanceof Collection<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      list.forEach(v -> copy.add(cut(v, chars)));
      chars[0] += list.size();
      return copy;
    }
    chars[0] += 24; // a number, a boolean, null
    return value;
  }
}
