package com.crmflow.workflow.template;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code {{source.path}}} variable in a template: {@code trigger}, {@code contact} or a node
 * output {@code <node_type>_<n>} (the n-th node of that type executed in the run).
 *
 * @param source trigger, contact, or e.g. http_request_2
 * @param path the dot path after the source (may be empty)
 */
public record TemplateReference(String token, String source, List<String> path) {

  /** {{ source.a.b }}: names are letters, digits, _ and - ; array indexes are plain numbers. */
  public static final Pattern VARIABLE =
      Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)((?:\\.[A-Za-z0-9_\\-]+)*)\\s*}}");

  private static final Pattern NODE_OUTPUT = Pattern.compile("([a-z_]+)_([1-9][0-9]*)");

  public static List<TemplateReference> in(String text) {
    List<TemplateReference> references = new ArrayList<>();
    if (text == null) {
      return references;
    }
    Matcher m = VARIABLE.matcher(text);
    while (m.find()) {
      String rest = m.group(2);
      List<String> path = rest.isEmpty() ? List.of() : List.of(rest.substring(1).split("\\."));
      references.add(new TemplateReference(m.group(), m.group(1), path));
    }
    return references;
  }

  /** For node outputs: the node type (http_request of http_request_2), else null. */
  public String nodeType() {
    Matcher m = NODE_OUTPUT.matcher(source);
    return m.matches() ? m.group(1) : null;
  }

  /** For node outputs: the execution ordinal (2 of http_request_2), else 0. */
  public int ordinal() {
    Matcher m = NODE_OUTPUT.matcher(source);
    return m.matches() ? Integer.parseInt(m.group(2)) : 0;
  }
}
