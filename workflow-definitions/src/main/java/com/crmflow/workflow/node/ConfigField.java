package com.crmflow.workflow.node;

import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * One config field of a node type: its key, how the console labels and edits it, and what its value
 * must hold. The structural tier of the canvas rules runs {@link #check()} whenever the key is
 * present; the completeness tier reports a {@link #required()} field that is missing or blank.
 *
 * @param key the key in {@code data.config}
 * @param label the form's label
 * @param kind the kind of value, and so the form control
 * @param required whether a flow can run without it (conditional needs stay in {@link
 *     NodeExecutor#checkComplete})
 * @param options the allowed values of a {@link FieldKind#SELECT}
 * @param min the least number allowed, or null
 * @param max the largest number allowed, or null
 * @param maxLength the longest string allowed, or null
 * @param template whether template variables are resolved in the value when the node runs
 * @param multiline whether the text is edited in several lines
 * @param secret which part of the value is secret
 * @param help a sentence that explains the field, or null
 * @param readOnly set by the service, never by the flow's author
 * @param check what a present value must hold (derived from the above unless given)
 * @param content whether the field gives a message its content: a node type with such fields is
 *     advised to have one of them set ({@link NodeDescriptor.Advice#MESSAGE})
 * @param unit the unit of a {@link FieldKind#NUMBER} that is a duration, or null: a wait lasts the
 *     sum of its duration fields ({@link NodeDescriptor.Advice#WAIT})
 * @param destination which part of where the node sends its secrets the value says
 */
public record ConfigField(
    String key,
    String label,
    FieldKind kind,
    boolean required,
    List<String> options,
    Double min,
    Double max,
    Integer maxLength,
    boolean template,
    boolean multiline,
    Secret secret,
    String help,
    boolean readOnly,
    ConfigCheck check,
    boolean content,
    ChronoUnit unit,
    Destination destination) {

  /** Which part of a field's value is a secret (sealed when stored, masked when shown). */
  public enum Secret {
    /** Nothing. */
    NONE,
    /** The whole string. */
    VALUE,
    /**
     * The values of the entries of a {@link FieldKind#KEY_VALUE} whose names speak of credentials
     * (see {@code NodeSecrets#isCredentialHeader}).
     */
    CREDENTIAL_ENTRIES
  }

  /**
   * Which part of where a node sends its secrets a field's value says ({@link
   * NodeSecrets#destination}): a kept secret stays only while the destination stays the same.
   */
  public enum Destination {
    /** Nothing. */
    NONE,
    /** The request's method: compared trimmed and upper-cased. */
    METHOD,
    /** A URL: compared by its origin (scheme, host, port), see {@link NodeSecrets#origin}. */
    ORIGIN
  }

  public ConfigField {
    options = options == null ? List.of() : List.copyOf(options);
    secret = secret == null ? Secret.NONE : secret;
    destination = destination == null ? Destination.NONE : destination;
  }

  /** A field of this kind; a {@link FieldKind#TEMPLATE} field resolves templates. */
  public static ConfigField of(String key, String label, FieldKind kind) {
    return new ConfigField(
        key,
        label,
        kind,
        false,
        List.of(),
        null,
        null,
        null,
        kind == FieldKind.TEMPLATE,
        false,
        kind == FieldKind.SECRET ? Secret.VALUE : Secret.NONE,
        null,
        false,
        null,
        false,
        null,
        Destination.NONE);
  }

  public static ConfigField text(String key, String label) {
    return of(key, label, FieldKind.TEXT);
  }

  public static ConfigField template(String key, String label) {
    return of(key, label, FieldKind.TEMPLATE);
  }

  public static ConfigField select(String key, String label, List<String> options) {
    return of(key, label, FieldKind.SELECT).options(options);
  }

  public static ConfigField number(String key, String label, double min, double max) {
    return of(key, label, FieldKind.NUMBER).range(min, max);
  }

  public ConfigField asRequired() {
    return with(b -> b.required = true);
  }

  public ConfigField options(List<String> allowed) {
    return with(b -> b.options = allowed);
  }

  public ConfigField range(double least, double most) {
    return with(
        b -> {
          b.min = least;
          b.max = most;
        });
  }

  public ConfigField maxLength(int length) {
    return with(b -> b.maxLength = length);
  }

  public ConfigField asMultiline() {
    return with(b -> b.multiline = true);
  }

  public ConfigField secret(Secret part) {
    return with(b -> b.secret = part);
  }

  public ConfigField help(String text) {
    return with(b -> b.help = text);
  }

  /** Set by the service (a webhook's path): shown, never edited. */
  public ConfigField asReadOnly() {
    return with(b -> b.readOnly = true);
  }

  /** A field that gives a message its content: one of these is advised. */
  public ConfigField asContent() {
    return with(b -> b.content = true);
  }

  /** A number that is a duration in this unit. */
  public ConfigField duration(ChronoUnit inUnit) {
    return with(b -> b.unit = inUnit);
  }

  /** A value that says this part of where the node sends its secrets. */
  public ConfigField destination(Destination part) {
    return with(b -> b.destination = part);
  }

  /** A check of its own in place of the one derived from the kind and limits. */
  public ConfigField check(ConfigCheck own) {
    return with(b -> b.check = own);
  }

  private ConfigField with(java.util.function.Consumer<Copy> change) {
    Copy b = new Copy(this);
    change.accept(b);
    return new ConfigField(
        key,
        label,
        kind,
        b.required,
        b.options,
        b.min,
        b.max,
        b.maxLength,
        template,
        b.multiline,
        b.secret,
        b.help,
        b.readOnly,
        b.check,
        b.content,
        b.unit,
        b.destination);
  }

  /** The changeable parts of a field, while one is changed. */
  private static final class Copy {
    boolean required;
    List<String> options;
    Double min;
    Double max;
    Integer maxLength;
    boolean multiline;
    Secret secret;
    String help;
    boolean readOnly;
    ConfigCheck check;
    boolean content;
    ChronoUnit unit;
    Destination destination;

    Copy(ConfigField field) {
      required = field.required;
      options = field.options;
      min = field.min;
      max = field.max;
      maxLength = field.maxLength;
      multiline = field.multiline;
      secret = field.secret;
      help = field.help;
      readOnly = field.readOnly;
      check = field.check;
      content = field.content;
      unit = field.unit;
      destination = field.destination;
    }
  }

  /** What a present value must hold: the field's own check, or the one of its kind and limits. */
  @Override
  public ConfigCheck check() {
    return check != null ? check : derivedCheck();
  }

  private ConfigCheck derivedCheck() {
    List<ConfigCheck> checks = new ArrayList<>();
    switch (kind) {
      case TEXT, TEMPLATE, SECRET, EMAIL_TEMPLATE -> checks.add(ConfigCheck.STRING);
      case SELECT -> checks.add(ConfigCheck.oneOf(options));
      case NUMBER -> checks.add(ConfigCheck.numberBetween(min, max));
      case KEY_VALUE -> checks.add(ConfigCheck.STRING_MAP);
      case JSON -> checks.add(ConfigCheck.OBJECT);
      case BOOLEAN -> checks.add(ConfigCheck.BOOLEAN);
      case TIME -> checks.add(ConfigCheck.TIME);
      case TIMEZONE -> checks.add(ConfigCheck.TIMEZONE);
      case DAYS -> checks.add(ConfigCheck.DAYS_OF_WEEK);
      case CRON -> checks.add(ConfigCheck.CRON);
      case WINDOW -> checks.add(ConfigCheck.WINDOW);
      case BRANCHES -> checks.add(ConfigCheck.BRANCHES);
    }
    if (maxLength != null) {
      int most = maxLength;
      checks.add(
          value ->
              value instanceof String s && s.length() > most
                  ? "must be at most " + most + " characters"
                  : null);
    }
    return value -> {
      for (ConfigCheck each : checks) {
        String problem = each.problem(value);
        if (problem != null) {
          return problem;
        }
      }
      return null;
    };
  }
}
