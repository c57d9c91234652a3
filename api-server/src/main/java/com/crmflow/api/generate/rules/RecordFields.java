package com.crmflow.api.generate.rules;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which record and field a phrase of a prompt names ("the deal amount", "the contact's
 * lifecycle_stage", "its value", "the plan"), read against what the flow starts on. A phrase that
 * could mean more than one record, a record the flow does not have, or a field the record does not
 * have is unclear: the parser says so rather than guess.
 */
final class RecordFields {

  /** What a flow's trigger carries: the record its template {@code {{trigger.*}}} reads. */
  enum Start {
    /** contact.* events: the trigger is the contact. */
    CONTACT("a contact event"),
    /** opportunity.* events: the trigger is the deal. */
    OPPORTUNITY("a deal event"),
    /** a webhook or another event: the trigger is a payload whose fields the prompt names. */
    PAYLOAD("a webhook"),
    /** a schedule, or a sequence's enrollment: no record but the run's contact. */
    NONE("a schedule");

    final String described;

    Start(String described) {
      this.described = described;
    }
  }

  /** A resolved field: the record ({@code contact}, {@code opportunity} or the payload). */
  record Field(String record, String name, String template) {}

  /** A field, or what the phrase leaves open. */
  record Resolution(Field field, String question) {
    boolean clear() {
      return field != null;
    }
  }

  static final Set<String> CONTACT =
      Set.of(
          "email",
          "first_name",
          "last_name",
          "phone",
          "mobile_phone",
          "company",
          "title",
          "department",
          "industry",
          "lead_source",
          "lead_status",
          "lifecycle_stage",
          "address_city",
          "address_state",
          "address_country",
          "timezone",
          "preferred_contact_method",
          "do_not_call",
          "do_not_email",
          "do_not_sms");

  static final Set<String> OPPORTUNITY =
      Set.of(
          "name",
          "stage",
          "value",
          "probability",
          "close_date",
          "lead_source",
          "next_step",
          "lost_reason");

  /** The words for a deal's fields: its amount is the field {@code value}. */
  private static final Map<String, String> DEAL_WORDS =
      Map.of(
          "amount", "value",
          "size", "value",
          "worth", "value",
          "volume", "value",
          "phase", "stage",
          "close", "close_date",
          "closing_date", "close_date");

  private static final String RECORD_WORDS = "contact|lead|person|deal|opportunity|account";

  /** "deal amount", "contact's lead_status", "value of the opportunity". */
  private static final Pattern RECORD =
      Pattern.compile(
          "^("
              + RECORD_WORDS
              + ")(?:'s|’s|s')?\\s+(.+)$"
              + "|^(.+?)\\s+of\\s+(?:the\\s+|this\\s+|that\\s+)?("
              + RECORD_WORDS
              + ")$");

  private RecordFields() {}

  /**
   * The field a phrase names, for reading (a condition's {@code field}).
   *
   * @param phrase the words before the comparison, e.g. "the deal amount", "its value"
   */
  static Resolution read(String phrase, Start start) {
    String[] named = named(phrase);
    String record = named[0];
    String field = named[1];
    if (field.isEmpty()) {
      return unclear("which field of the " + recordWord(record) + " does it test?");
    }
    if ("trigger".equals(record)) {
      // "its value": the record the flow starts on
      record =
          switch (start) {
            case CONTACT -> "contact";
            case OPPORTUNITY -> "opportunity";
            case PAYLOAD -> "payload";
            case NONE -> null;
          };
    }
    if (record == null && field.startsWith("custom_fields.")) {
      record = "contact";
    }
    if (record == null) {
      record = recordOf(field, start);
      if (record == null) {
        return unclear(
            "which record's \""
                + field.replace('_', ' ')
                + "\"? The flow starts on "
                + start.described
                + ", which has no such field: name the record and the field, e.g. \"the contact's"
                + " lifecycle stage\", \"the deal amount\"");
      }
    }
    return switch (record) {
      case "contact" -> contactField(field);
      case "opportunity" -> dealField(field, start);
      case "payload" ->
          new Resolution(new Field("payload", field, "{{trigger." + field + "}}"), null);
      default ->
          unclear(
              "which "
                  + record
                  + "? The flow starts on "
                  + start.described
                  + ", which names no "
                  + record
                  + ": start it on the "
                  + record
                  + "'s events or test a field of the contact");
    };
  }

  /**
   * The record and field a change names (a crm_update), as {@code {entityType, field}}: the same
   * reading as {@link #read}, but a payload field is no record to change.
   */
  static Resolution change(String phrase, Start start) {
    Resolution read = read(phrase, start);
    if (read.clear() && read.field().record().equals("payload")) {
      String field = read.field().name();
      return unclear(
          "which record's \""
              + field.replace('_', ' ')
              + "\"? Neither the contact nor a deal has that field: name the record and one of its"
              + " fields, e.g. \"the contact's lead status\", \"the deal's stage\"");
    }
    return read;
  }

  /** {record or null, field} of a phrase: "the deal amount" → {opportunity, amount}. */
  private static String[] named(String phrase) {
    String p =
        phrase
            .toLowerCase(Locale.ROOT)
            .trim()
            .replaceAll("^(?:the|its|their|his|her|this|that)\\s+", "")
            .replaceAll("\\s+", " ");
    String record = null;
    String field = p;
    if (phrase.trim().toLowerCase(Locale.ROOT).matches("^their\\b.*")) {
      record = "contact";
    } else if (phrase.trim().toLowerCase(Locale.ROOT).matches("^its\\b.*")) {
      record = "trigger";
    }
    Matcher m = RECORD.matcher(p);
    if (m.matches()) {
      record = recordOfWord(m.group(1) != null ? m.group(1) : m.group(4));
      field = m.group(1) != null ? m.group(2) : m.group(3);
    } else if (p.matches(RECORD_WORDS)) {
      record = recordOfWord(p);
      field = "";
    }
    field =
        field
            .replaceAll("^(?:the|its|their)\\s+", "")
            .replaceAll("[-\\s]+", "_")
            .replaceAll("[^\\p{L}0-9_.]", "");
    return new String[] {record, field};
  }

  private static String recordOfWord(String word) {
    return switch (word) {
      case "contact", "lead", "person" -> "contact";
      case "deal", "opportunity" -> "opportunity";
      default -> "account";
    };
  }

  private static String recordWord(String record) {
    return record == null ? "record" : record.equals("opportunity") ? "deal" : record;
  }

  /** The record of a field named without one, or null when that is not clear. */
  private static String recordOf(String field, Start start) {
    String dealField = DEAL_WORDS.getOrDefault(field, field);
    boolean contact = CONTACT.contains(field);
    boolean deal = OPPORTUNITY.contains(dealField);
    if (contact && deal) {
      return switch (start) {
        case CONTACT, NONE -> "contact";
        case OPPORTUNITY -> "opportunity";
        case PAYLOAD -> "payload";
      };
    }
    if (contact) {
      return "contact";
    }
    if (start == Start.PAYLOAD) {
      // a webhook's payload has the fields its sender gives it
      return "payload";
    }
    if (deal) {
      return "opportunity";
    }
    return null;
  }

  private static Resolution contactField(String field) {
    if (CONTACT.contains(field) || field.matches("custom_fields\\.[a-z0-9_]+")) {
      return new Resolution(new Field("contact", field, "{{contact." + field + "}}"), null);
    }
    return unclear(
        "the contact has no field \""
            + field.replace('_', ' ')
            + "\": name one of "
            + String.join(", ", List.copyOf(new java.util.TreeSet<>(CONTACT)))
            + ", or custom_fields.<key>");
  }

  private static Resolution dealField(String field, Start start) {
    String name = DEAL_WORDS.getOrDefault(field, field);
    if (!OPPORTUNITY.contains(name)) {
      return unclear(
          "a deal has no field \""
              + field.replace('_', ' ')
              + "\": name one of "
              + String.join(", ", List.copyOf(new java.util.TreeSet<>(OPPORTUNITY))));
    }
    if (start != Start.OPPORTUNITY) {
      return unclear(
          "which deal? The flow starts on "
              + start.described
              + ", which names no deal: start it on a deal event (\"when a deal is created\")"
              + (start == Start.PAYLOAD
                  ? " or name the payload's own field (\"if amount is over 10000\")"
                  : ""));
    }
    return new Resolution(new Field("opportunity", name, "{{trigger." + name + "}}"), null);
  }

  private static Resolution unclear(String question) {
    return new Resolution(null, question);
  }
}
