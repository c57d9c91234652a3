package com.crmflow.workflow.canvas;

import com.crmflow.workflow.template.TemplateReference;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The secret values of a node's config: a webhook_trigger's {@code secretToken} and the values of
 * an http_request's credential headers (Authorization, Proxy-Authorization, Cookie, and any header
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

  private static final Set<String> CREDENTIAL_HEADERS =
      Set.of("authorization", "proxy-authorization", "cookie");
  private static final Pattern CREDENTIAL_WORD =
      Pattern.compile("key|token|secret|passw|auth|signature");

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

  public static boolean isCredentialHeader(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return CREDENTIAL_HEADERS.contains(lower) || CREDENTIAL_WORD.matcher(lower).find();
  }

  /**
   * The config with each non-empty secret string replaced by {@code rewrite}; the same map when the
   * node type has no secrets. Other values, and secrets that are not strings, are left as they are
   * (the canvas rules refuse those).
   */
  public static Map<String, Object> rewrite(
      String nodeType, Map<String, Object> config, Rewrite rewrite) {
    if (config == null) {
      return null;
    }
    if (NodeType.WEBHOOK_TRIGGER.value().equals(nodeType)
        && config.get("secretToken") instanceof String token
        && !token.isEmpty()) {
      Map<String, Object> changed = new LinkedHashMap<>(config);
      changed.put("secretToken", rewrite.apply("secretToken", token));
      return changed;
    }
    if (NodeType.HTTP_REQUEST.value().equals(nodeType)
        && config.get("headers") instanceof Map<?, ?> headers) {
      Map<Object, Object> changedHeaders = new LinkedHashMap<>(headers);
      boolean any = false;
      for (Map.Entry<?, ?> header : headers.entrySet()) {
        if (header.getKey() instanceof String name
            && isCredentialHeader(name)
            && header.getValue() instanceof String value
            && !value.isEmpty()) {
          changedHeaders.put(name, rewrite.apply("headers." + name, value));
          any = true;
        }
      }
      if (any) {
        Map<String, Object> changed = new LinkedHashMap<>(config);
        changed.put("headers", changedHeaders);
        return changed;
      }
    }
    return config;
  }

  /** The config as the API shows it: every secret as {@link #MASK}. */
  public static Map<String, Object> masked(String nodeType, Map<String, Object> config) {
    return rewrite(nodeType, config, (path, value) -> MASK);
  }

  /** The value at a path {@link #rewrite} names, or null. */
  public static Object valueAt(Map<String, Object> config, String path) {
    if (config == null) {
      return null;
    }
    if (path.startsWith("headers.")) {
      return config.get("headers") instanceof Map<?, ?> headers
          ? headers.get(path.substring("headers.".length()))
          : null;
    }
    return config.get(path);
  }
}
