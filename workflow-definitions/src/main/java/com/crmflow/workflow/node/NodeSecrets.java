package com.crmflow.workflow.node;

import com.crmflow.workflow.template.TemplateReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The secret values of a node's config, as its type's descriptor marks them ({@link
 * ConfigField#secret()}): a webhook_trigger's {@code secretToken} and the values of an
 * http_request's credential headers (Authorization, Proxy-Authorization, Cookie, and any header
 * whose name speaks of a key, token, secret, password or auth).
 *
 * <p>A stored secret is sealed: {@code sealed:v1:<base64 AES-GCM>}, followed by the template
 * variables its plain text holds ({@code sealed:v1:… {{trigger.token}}}). The variables stay
 * readable so that the workflow can resolve them and hand their values to the activity that unseals
 * the text; the text itself never reaches workflow history. The API shows a secret as {@link
 * #MASK}, and the mask written back keeps the stored secret.
 */
public final class NodeSecrets {

  /** What the API shows in place of a secret; sent back, it keeps the stored one. */
  public static final String MASK = "********";

  public static final String SEALED_PREFIX = "sealed:v1:";

  /**
   * The names of the credential entries of a {@link ConfigField.Secret#CREDENTIAL_ENTRIES} field,
   * lowercased, as a regular expression found anywhere in the name: Cookie, and any name that
   * speaks of a key, token, secret, password, auth (Authorization, Proxy-Authorization) or
   * signature. GET /api/v1/node-types serves it, so that the console masks the entries the service
   * seals.
   */
  public static final String CREDENTIAL_ENTRY_PATTERN =
      "^cookie$|key|token|secret|passw|auth|signature";

  private static final Pattern CREDENTIAL_ENTRY = Pattern.compile(CREDENTIAL_ENTRY_PATTERN);

  private NodeSecrets() {}

  /** Rewrites one secret value: (its path in the config, e.g. "headers.Authorization", value). */
  @FunctionalInterface
  public interface Rewrite {
    Object apply(String path, String value);
  }

  public static boolean isSealed(Object value) {
    return value instanceof String s && s.startsWith(SEALED_PREFIX);
  }

  /** The base64 cipher text of a sealed value, without its trailing variables. */
  public static String cipherText(String sealed) {
    String rest = sealed.substring(SEALED_PREFIX.length());
    int space = rest.indexOf(' ');
    return space < 0 ? rest : rest.substring(0, space);
  }

  /** A sealed value for this cipher text of this plain text (its variables appended). */
  public static String sealed(String cipherText, String plainText) {
    Set<String> tokens = new LinkedHashSet<>();
    TemplateReference.in(plainText).forEach(reference -> tokens.add(reference.token()));
    return SEALED_PREFIX + cipherText + (tokens.isEmpty() ? "" : " " + String.join("", tokens));
  }

  /** Whether an entry of this name is a credential ({@link #CREDENTIAL_ENTRY_PATTERN}). */
  public static boolean isCredentialHeader(String name) {
    return CREDENTIAL_ENTRY.matcher(name.toLowerCase(Locale.ROOT)).find();
  }

  /**
   * The config with each non-empty secret string replaced by {@code rewrite}; the same map when the
   * node type has no secrets. Other values, and secrets that are not strings, are left as they are
   * (the canvas rules refuse those). A secret is what the type's descriptor in this catalog marks:
   * a field whose value is secret, and the credential entries of one that marks those.
   */
  public static Map<String, Object> rewrite(
      NodeCatalog catalog, String nodeType, Map<String, Object> config, Rewrite rewrite) {
    if (config == null) {
      return null;
    }
    NodeDescriptor descriptor = catalog.descriptor(nodeType).orElse(null);
    return descriptor == null ? config : rewrite(descriptor, config, rewrite);
  }

  /** As {@link #rewrite(NodeCatalog, String, Map, Rewrite)}, for a node of this type. */
  public static Map<String, Object> rewrite(
      NodeDescriptor descriptor, Map<String, Object> config, Rewrite rewrite) {
    if (config == null) {
      return null;
    }
    Map<String, Object> changed = null;
    for (ConfigField field : descriptor.fields()) {
      String key = field.key();
      if (field.secret() == ConfigField.Secret.VALUE
          && config.get(key) instanceof String value
          && !value.isEmpty()) {
        changed = changed == null ? new LinkedHashMap<>(config) : changed;
        changed.put(key, rewrite.apply(key, value));
      } else if (field.secret() == ConfigField.Secret.CREDENTIAL_ENTRIES
          && config.get(key) instanceof Map<?, ?> entries) {
        Map<Object, Object> changedEntries = new LinkedHashMap<>(entries);
        boolean any = false;
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
          if (entry.getKey() instanceof String name
              && isCredentialHeader(name)
              && entry.getValue() instanceof String value
              && !value.isEmpty()) {
            changedEntries.put(name, rewrite.apply(key + "." + name, value));
            any = true;
          }
        }
        if (any) {
          changed = changed == null ? new LinkedHashMap<>(config) : changed;
          changed.put(key, changedEntries);
        }
      }
    }
    return changed == null ? config : changed;
  }

  /**
   * Where a node sends its secrets, from the fields its descriptor marks ({@link
   * ConfigField#destination()}), in the form's order and joined by a space: for an http_request its
   * method and the origin of its url (scheme, host and port, lowercased, the default port filled
   * in), e.g. {@code "POST https://api.example.com:443"}; null for a node of a type without such
   * fields, whose secrets go nowhere (a webhook_trigger's secretToken is checked against callers,
   * never sent). A kept secret stays only while this stays the same.
   */
  public static String destination(
      NodeCatalog catalog, String nodeType, Map<String, Object> config) {
    NodeDescriptor descriptor = catalog.descriptor(nodeType).orElse(null);
    if (descriptor == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (ConfigField field : descriptor.fields()) {
      Object value = config == null ? null : config.get(field.key());
      switch (field.destination()) {
        case METHOD ->
            parts.add(value instanceof String m ? m.trim().toUpperCase(Locale.ROOT) : "");
        case ORIGIN -> parts.add(value instanceof String u ? origin(u) : "");
        case NONE -> {}
      }
    }
    return parts.isEmpty() ? null : String.join(" ", parts);
  }

  /**
   * The origin of a url as {@code scheme://host:port}; its text up to the path when it is not a
   * plain absolute url (a template in the host, say), so that any change to it counts.
   */
  public static String origin(String url) {
    String text = url.trim();
    int schemeEnd = text.indexOf("://");
    if (schemeEnd <= 0) {
      return text;
    }
    String scheme = text.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
    String rest = text.substring(schemeEnd + 3);
    int authorityEnd = rest.length();
    for (char c : new char[] {'/', '?', '#'}) {
      int at = rest.indexOf(c);
      if (at >= 0 && at < authorityEnd) {
        authorityEnd = at;
      }
    }
    String authority = rest.substring(0, authorityEnd);
    if (authority.contains("{{") || authority.contains("@")) {
      return scheme + "://" + authority;
    }
    String host = authority.toLowerCase(Locale.ROOT);
    String port = null;
    int colon = host.lastIndexOf(':');
    if (colon >= 0 && colon > host.lastIndexOf(']')) {
      port = host.substring(colon + 1);
      host = host.substring(0, colon);
    }
    if (port == null || port.isEmpty()) {
      port =
          switch (scheme) {
            case "http" -> "80";
            case "https" -> "443";
            default -> "";
          };
    }
    return scheme + "://" + host + ":" + port;
  }

  /** The config as the API shows it: every secret as {@link #MASK}, as this catalog's types say. */
  public static Map<String, Object> masked(
      NodeCatalog catalog, String nodeType, Map<String, Object> config) {
    return rewrite(catalog, nodeType, config, (path, value) -> MASK);
  }

  /** As {@link #masked(NodeCatalog, String, Map)}, for a node of this type. */
  public static Map<String, Object> masked(NodeDescriptor descriptor, Map<String, Object> config) {
    return rewrite(descriptor, config, (path, value) -> MASK);
  }

  /** The value at a path {@link #rewrite} names, or null. */
  public static Object valueAt(Map<String, Object> config, String path) {
    if (config == null) {
      return null;
    }
    int dot = path.indexOf('.');
    if (dot > 0 && !config.containsKey(path)) {
      return config.get(path.substring(0, dot)) instanceof Map<?, ?> entries
          ? entries.get(path.substring(dot + 1))
          : null;
    }
    return config.get(path);
  }
}
