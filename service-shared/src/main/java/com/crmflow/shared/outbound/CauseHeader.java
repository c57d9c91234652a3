package com.crmflow.shared.outbound;

import com.crmflow.shared.secret.SecretCipher;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * What a run's outbound call says of the run it comes from. {@code CRM-Cause} is an opaque token:
 * the run and node, sealed with the deployment's secrets key for the run's tenant, so that only
 * this deployment reads it, only for that tenant, and nobody can make one. The service's own public
 * trigger and its authenticated API read it, so that what a call from one of the tenant's runs
 * starts or writes continues that run's chain of causes (crm_event_trigger's loop rules apply);
 * anyone else sees a string that names nothing. {@code Idempotency-Key} is a keyed hash of tenant,
 * run and node: the same on every attempt of the node, and no clue to the run.
 *
 * <p>A token is good for {@link #LIFETIME} from its making: every attempt of a call makes a fresh
 * one, so a receiver that keeps a token cannot replay it later. The service sets both headers
 * itself: headers of those names in a node's configuration are replaced.
 */
@Component
public class CauseHeader {

  public static final String NAME = "CRM-Cause";

  /** How long a token is read after it was made (the clocks of api-servers and workers agree). */
  public static final Duration LIFETIME = Duration.ofHours(1);

  private static final String TOKEN_PURPOSE = "crm-cause";
  private static final String IDEMPOTENCY_PURPOSE = "idempotency-key";

  /** The run and the node a value names. */
  public record Cause(UUID runId, String nodeId) {

    /**
     * The run and node of {@code <run id>:<node id>} (the form the workflow names a node's call
     * with); empty for a value not of that form.
     */
    public static Optional<Cause> parse(String runAndNode) {
      if (runAndNode == null) {
        return Optional.empty();
      }
      String trimmed = runAndNode.trim();
      int colon = trimmed.indexOf(':');
      if (colon < 0) {
        return Optional.empty();
      }
      try {
        String node = trimmed.substring(colon + 1);
        return Optional.of(
            new Cause(UUID.fromString(trimmed.substring(0, colon)), node.isEmpty() ? null : node));
      } catch (IllegalArgumentException notARun) {
        return Optional.empty();
      }
    }

    /** {@code <run id>:<node id>}. */
    public String runAndNode() {
      return runId + ":" + (nodeId == null ? "" : nodeId);
    }
  }

  private final SecretCipher cipher;
  private final Clock clock;

  @Autowired
  public CauseHeader(SecretCipher cipher) {
    this(cipher, Clock.systemUTC());
  }

  public CauseHeader(SecretCipher cipher, Clock clock) {
    this.cipher = cipher;
    this.clock = clock;
  }

  /**
   * The {@code CRM-Cause} value of a call of this run's node; empty when this process has no
   * secrets key (it sends no such header then).
   */
  public Optional<String> value(UUID tenantId, Cause cause) {
    if (cipher.currentKeyId() == null) {
      return Optional.empty();
    }
    String plain = clock.instant().getEpochSecond() + ":" + cause.runAndNode();
    return Optional.of(cipher.sealToken(TOKEN_PURPOSE, tenantId, plain));
  }

  /**
   * The run and node a {@code CRM-Cause} value names, when this deployment made it for this tenant
   * within {@link #LIFETIME}; empty for any other value.
   */
  public Optional<Cause> read(UUID tenantId, String value) {
    return cipher
        .openToken(TOKEN_PURPOSE, tenantId, value)
        .flatMap(
            plain -> {
              int colon = plain.indexOf(':');
              if (colon < 0) {
                return Optional.empty();
              }
              Instant made;
              try {
                made = Instant.ofEpochSecond(Long.parseLong(plain.substring(0, colon)));
              } catch (NumberFormatException damaged) {
                return Optional.empty();
              }
              Duration age = Duration.between(made, clock.instant()).abs();
              return age.compareTo(LIFETIME) > 0
                  ? Optional.empty()
                  : Cause.parse(plain.substring(colon + 1));
            });
  }

  /** The {@code Idempotency-Key} of a call of this run's node: the same on every attempt. */
  public String idempotencyKey(UUID tenantId, String runAndNode) {
    return cipher.keyedHash(IDEMPOTENCY_PURPOSE, tenantId + ":" + runAndNode);
  }

  /**
   * Puts the header into {@code headers}, replacing one of the same name in any letter case; a null
   * value only removes those.
   */
  public static void put(Map<String, String> headers, String value) {
    headers.keySet().removeIf(name -> name.toLowerCase(Locale.ROOT).equals("crm-cause"));
    if (value != null) {
      headers.put(NAME, value);
    }
  }
}
