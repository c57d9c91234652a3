package com.crmflow.api.nodetype;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.node.ConfigCheck;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.registration.NodeExecutors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The node config table of docs/automations.md is the built-in catalog's, rendered from the
 * descriptors: a field added, renamed, made required or given other options fails this test until
 * the table says the same. {@code -Dnode-config-table.write=true} rewrites the table in place.
 */
class NodeConfigTableTest {

  static final Path DOC = Path.of("..", "docs", "automations.md");
  static final String START = "<!-- node-config-table: generated from the node descriptors -->";
  static final String END = "<!-- /node-config-table -->";

  /** Options beyond this many are not listed in the table (GET /api/v1/node-types lists them). */
  private static final int OPTIONS_LISTED = 8;

  @Test
  void theDocsTableIsTheCatalogs() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int start = doc.indexOf(START);
    int end = doc.indexOf(END);
    assertThat(start).as(DOC + " marks its table with " + START).isNotNegative();
    assertThat(end).as(DOC + " ends its table with " + END).isGreaterThan(start);
    String written = doc.substring(start + START.length(), end);
    String rendered = "\n" + table(NodeExecutors.catalog());
    if (!written.equals(rendered) && Boolean.getBoolean("node-config-table.write")) {
      Files.writeString(
          DOC,
          doc.substring(0, start + START.length()) + rendered + doc.substring(end),
          StandardCharsets.UTF_8);
      written = rendered;
    }

    assertThat(written)
        .as(
            "the node config table of "
                + DOC
                + " differs from the descriptors; rerun with -Dnode-config-table.write=true to"
                + " rewrite it")
        .isEqualTo(rendered);
  }

  @Test
  void theTableNamesEachFieldWithItsLimitsAndSecrets() {
    String table = table(NodeExecutors.catalog());

    assertThat(table)
        .contains("| http_request | calls a URL. **method** (GET, POST, PUT, PATCH, DELETE), ")
        .contains("timeoutSeconds (1–60)")
        .contains("secretToken (secret: write-only, see [Secrets of a flow](#secrets-of-a-flow)")
        .contains("webhookPath (set by the server; ")
        .contains("**eventType** (one of ");
  }

  /** The table's rows, one per node type of the catalog, with the header. */
  static String table(NodeCatalog catalog) {
    StringBuilder out = new StringBuilder();
    out.append("| node type | what it does; config (required **bold**) |\n");
    out.append("|---|---|\n");
    for (NodeDescriptor type : catalog.descriptors()) {
      List<String> fields = new ArrayList<>();
      for (ConfigField field : type.fields()) {
        fields.add(field(field));
      }
      out.append("| ").append(type.name()).append(" | ").append(type.description()).append('.');
      if (!fields.isEmpty()) {
        out.append(' ').append(String.join(", ", fields));
      }
      if (type.outputsField() != null) {
        out.append("; outgoing edges `type: conditional`, one per entry of ")
            .append(type.outputsField())
            .append(", `label:` its label");
      } else if (type.branches()) {
        out.append("; outgoing edges `type: conditional`, `label: ")
            .append(String.join(" / ", type.outputs()))
            .append('`');
      }
      out.append(" |\n");
    }
    return out.toString();
  }

  /** Text as a table cell shows it: no HTML tags, no column breaks. */
  private static String markdown(String text) {
    return text.replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|");
  }

  private static String field(ConfigField field) {
    List<String> notes = new ArrayList<>();
    if (field.readOnly()) {
      notes.add("set by the server");
    }
    if (field.secret() == ConfigField.Secret.VALUE) {
      notes.add("secret: write-only, see [Secrets of a flow](#secrets-of-a-flow)");
    }
    if (field.secret() == ConfigField.Secret.CREDENTIAL_ENTRIES) {
      notes.add("credential entries write-only, see [Secrets of a flow](#secrets-of-a-flow)");
    }
    if (!field.options().isEmpty()) {
      notes.add(
          field.options().size() <= OPTIONS_LISTED
              ? String.join(", ", field.options())
              : "one of " + field.options().size() + " values, listed by GET /api/v1/node-types");
    }
    if (field.min() != null && field.max() != null) {
      notes.add(ConfigCheck.plain(field.min()) + "–" + ConfigCheck.plain(field.max()));
    }
    if (field.maxLength() != null) {
      notes.add("at most " + field.maxLength() + " characters");
    }
    switch (field.kind()) {
      case KEY_VALUE -> notes.add("string values");
      case JSON -> notes.add("JSON object");
      case BOOLEAN -> notes.add("boolean");
      case TIME -> notes.add("`HH:mm`");
      case DAYS -> notes.add("days 0–6");
      case WINDOW -> notes.add("send window `{days: [1–7], from, to, timezone}`");
      case BRANCHES -> notes.add("`[{label, percent}]`");
      default -> {}
    }
    if (field.template() && field.kind() == FieldKind.TEMPLATE) {
      notes.add("templates");
    }
    if (field.help() != null) {
      notes.add(markdown(field.help()));
    }
    String key = field.required() ? "**" + field.key() + "**" : field.key();
    return notes.isEmpty() ? key : key + " (" + String.join("; ", notes) + ")";
  }
}
