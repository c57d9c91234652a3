package com.crmflow.api.nodetype;

import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.contact.Contact;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeSecrets;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** GET /api/v1/node-types: every node type with its palette entry, config fields and access. */
@RestController
class NodeTypeController {

  private final NodeTypes types;

  NodeTypeController(NodeTypes types) {
    this.types = types;
  }

  @GetMapping("/api/v1/node-types")
  @RequiresScope(Scope.SEQUENCES_READ)
  NodeTypeList list() {
    return new NodeTypeList(
        types.descriptors().stream().map(NodeTypeView::of).toList(), CONTACT_FIELDS);
  }

  /**
   * The run's contact's fields as {@code {{contact.<key>}}} reads them: the keys of the contact as
   * a run receives it ({@link Contact#asEventData}), read off a contact with nothing set.
   */
  static final List<VariableField> CONTACT_FIELDS =
      new Contact(
              new java.util.UUID(0, 0),
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              false,
              false,
              false,
              null,
              null,
              null,
              null)
          .asEventData().keySet().stream()
              .map(key -> new VariableField(key, labelOf(key)))
              .toList();

  /** "first_name" → "First name", "contact_id" → "Contact ID". */
  private static String labelOf(String key) {
    String words = key.replace('_', ' ').replaceAll("\\bid\\b", "ID");
    return Character.toUpperCase(words.charAt(0)) + words.substring(1);
  }

  /**
   * {@code {node_types, contact_fields}}: the types, triggers first, and the contact's fields a
   * template reads (its custom fields are under {@code custom_fields.<field_key>}).
   */
  record NodeTypeList(List<NodeTypeView> nodeTypes, List<VariableField> contactFields) {}

  /** A field a template reads: its key and a label for it. */
  record VariableField(String key, String label) {}

  /** One node type as the console draws it. */
  record NodeTypeView(
      @Schema(description = "the type's name in a canvas, e.g. http_request") String type,
      @Schema(description = "whether a node of this type starts a flow") boolean trigger,
      @Schema(description = "the palette's name") String label,
      @Schema(allowableValues = {"triggers", "actions", "logic", "data"}) String group,
      @Schema(description = "the console's icon name") String icon,
      String description,
      @Schema(description = "whether the linear builder offers it as a step") boolean step,
      @Schema(
              description =
                  "its outgoing edges' labels when it branches, or one {field}: the labels of that"
                      + " config field's entries ({branches}: a split's branch labels); empty: one"
                      + " output")
          List<String> outputs,
      @Schema(
              description =
                  "the config field whose entries' label values are its outputs (a split's"
                      + " branches: one labelled edge per entry); null: outputs as listed",
              nullable = true)
          String outputsFrom,
      @Schema(
              description =
                  "what a node's output holds, read by the nodes after it as"
                      + " {{<type>_<n>.<key>}}; a key {field} stands for each key of that config"
                      + " field's object")
          List<OutputFieldView> outputFields,
      @Schema(description = "record types it reads (chat: the chat integration)")
          List<String> reads,
      @Schema(description = "record types it writes; {field}: named by that config field")
          List<String> writes,
      List<FieldView> fields,
      @Schema(
              description = "the line a node's card shows; null: its first text values",
              nullable = true)
          SummaryView summary) {

    static NodeTypeView of(NodeDescriptor d) {
      return new NodeTypeView(
          d.name(),
          d.isTrigger(),
          d.label(),
          d.group(),
          d.icon(),
          d.description(),
          d.isStep(),
          d.outputs(),
          d.outputsField(),
          d.outputFields().stream()
              .map(f -> new OutputFieldView(f.key(), f.description()))
              .toList(),
          d.access().reads(),
          d.access().writes(),
          d.fields().stream().map(FieldView::of).toList(),
          d.summary() == null ? null : SummaryView.of(d.summary()));
    }
  }

  /** One field of a node's output: its path in the output and what it holds. */
  record OutputFieldView(String key, String description) {}

  /**
   * A node's card line: {@code lead} (when any of the fields is set), then the set ones of {@code
   * fields}, joined by {@code separator}; each value as its field's kind shows it (a duration with
   * its unit, a key-value or JSON field by its keys, a secret as "with a secret").
   */
  record SummaryView(
      @Schema(description = "the words before the values, e.g. Wait", nullable = true) String lead,
      @Schema(description = "the keys of the fields shown, in order") List<String> fields,
      @Schema(description = "what goes between two values") String separator) {

    static SummaryView of(NodeDescriptor.Summary summary) {
      return new SummaryView(summary.lead(), summary.keys(), summary.separator());
    }
  }

  /** One config field: its form control and limits. */
  record FieldView(
      String key,
      String label,
      @Schema(
              allowableValues = {
                "text",
                "template",
                "number",
                "select",
                "secret",
                "key_value",
                "json",
                "boolean",
                "time",
                "timezone",
                "days",
                "cron",
                "window",
                "branches",
                "email_template"
              })
          String kind,
      boolean required,
      @Schema(description = "the allowed values of a select") List<String> options,
      Double min,
      Double max,
      Integer maxLength,
      @Schema(description = "whether template variables are resolved in it") boolean template,
      boolean multiline,
      @Schema(
              description = "which part is secret (stored sealed, shown masked)",
              allowableValues = {"none", "value", "credential_entries"})
          String secret,
      @Schema(description = "set by the service, never edited") boolean readOnly,
      String help,
      @Schema(
              description = "the unit of a number that is a duration (days, hours, minutes, ...)",
              nullable = true)
          String unit,
      @Schema(
              description =
                  "for credential_entries: a regular expression, found anywhere in an entry's"
                      + " lowercased name, that names the entries whose values are secret",
              nullable = true)
          String secretEntries) {

    static FieldView of(ConfigField f) {
      return new FieldView(
          f.key(),
          f.label(),
          f.kind().value(),
          f.required(),
          f.options(),
          f.min(),
          f.max(),
          f.maxLength(),
          f.template(),
          f.multiline(),
          f.secret().name().toLowerCase(java.util.Locale.ROOT),
          f.readOnly(),
          f.help(),
          f.unit() == null ? null : f.unit().toString().toLowerCase(java.util.Locale.ROOT),
          f.secret() == ConfigField.Secret.CREDENTIAL_ENTRIES
              ? NodeSecrets.CREDENTIAL_ENTRY_PATTERN
              : null);
    }
  }
}
