package com.crmflow.api.apikey;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.Scope;
import com.crmflow.api.settings.CrmProperties;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Issues, authenticates and revokes API keys. A key is {@code crm_} followed by 43 base64url
 * characters (256 random bits); only its SHA-256 is stored, which is enough for keys of this
 * entropy (no salt or slow hash needed: there is nothing to guess).
 */
@Service
public class ApiKeyService {

  static final String KEY_PREFIX = "crm_";

  /** Shorter tokens are never keys (ours have 47 characters): no database lookup for them. */
  private static final int MIN_KEY_LENGTH = 16;

  private static final Pattern BEARER = Pattern.compile("(?i)bearer +(\\S+)\\s*");
  private static final int SHOWN_PREFIX_LENGTH = 12;

  /** A key's last_used_at moves at most this often (see {@link ApiKeyRepository#touch}). */
  private static final long TOUCH_EVERY_NANOS = 30_000_000_000L;

  private final SecureRandom random = new SecureRandom();
  private final ApiKeyRepository keys;

  /**
   * Live keys by hash, each trusted for {@code crm.api-keys.cache-for} after its lookup: a busy
   * client costs one lookup a second instead of one statement per request. Unknown and revoked keys
   * are not kept, so a new key works at once.
   */
  private final Cache<String, ApiKey> liveKeys;

  /**
   * When this process last recorded each key's use: a busy key costs one UPDATE per 30 s here
   * instead of one statement per request.
   */
  private final Map<UUID, Long> touchedAt = new ConcurrentHashMap<>();

  ApiKeyService(ApiKeyRepository keys, CrmProperties properties) {
    this.keys = keys;
    this.liveKeys =
        Caffeine.newBuilder()
            .expireAfterWrite(properties.apiKeys().cacheFor())
            .maximumSize(10_000)
            .build();
  }

  /** A new key and its plaintext, which is shown to the user once and never again. */
  public record IssuedKey(ApiKey apiKey, String plaintext) {}

  @Transactional
  public IssuedKey issue(
      UUID tenantId, String name, List<String> scopes, Integer rateLimitPerMinute) {
    byte[] secret = new byte[32];
    random.nextBytes(secret);
    String plaintext = KEY_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    return new IssuedKey(insert(tenantId, name, plaintext, scopes, rateLimitPerMinute), plaintext);
  }

  /** Stores a key whose plaintext the operator chose (crm.bootstrap.api-key). */
  public ApiKey importKey(UUID tenantId, String name, String plaintext, List<String> scopes) {
    return insert(tenantId, name, plaintext, scopes, null);
  }

  public boolean exists(String plaintext) {
    return keys.existsByHash(hash(plaintext));
  }

  private ApiKey insert(
      UUID tenantId, String name, String plaintext, List<String> scopes, Integer rateLimit) {
    List<String> distinct = List.copyOf(new LinkedHashSet<>(scopes));
    String prefix = plaintext.substring(0, Math.min(SHOWN_PREFIX_LENGTH, plaintext.length()));
    return keys.insert(tenantId, name, prefix, hash(plaintext), distinct, rateLimit);
  }

  /** The caller behind an Authorization header value, if it names a live key. */
  private void touch(ApiKey key) {
    long now = System.nanoTime();
    Long last = touchedAt.get(key.id());
    if (last == null || now - last >= TOUCH_EVERY_NANOS) {
      touchedAt.put(key.id(), now);
      keys.touch(key.id());
    }
  }

  public Optional<Caller> authenticate(String authorizationHeader) {
    if (authorizationHeader == null) {
      return Optional.empty();
    }
    var bearer = BEARER.matcher(authorizationHeader);
    if (!bearer.matches()) {
      return Optional.empty();
    }
    String token = bearer.group(1);
    // operator-chosen bootstrap keys need not have our crm_ shape, so any long token is looked up
    Optional<ApiKey> key =
        token.length() >= MIN_KEY_LENGTH
            ? Optional.ofNullable(
                liveKeys.get(hash(token), hash -> keys.findActiveByHash(hash).orElse(null)))
            : Optional.empty();
    key.ifPresent(this::touch);
    return key.map(
        k ->
            new Caller(
                k.tenantId(), k.id(), new LinkedHashSet<>(k.scopes()), k.rateLimitPerMinute()));
  }

  public List<ApiKey> list(UUID tenantId) {
    return keys.listByTenant(tenantId);
  }

  /**
   * Revokes the key; once the revocation commits, this process forgets it. Evicting by its hash
   * also drops a lookup under way that read the key before the commit: Caffeine evicts a key after
   * its load finishes.
   */
  @Transactional
  public Optional<ApiKey> revoke(UUID tenantId, UUID keyId) {
    Optional<ApiKey> revoked = keys.revoke(tenantId, keyId);
    if (revoked.isPresent()) {
      String hash = keys.hashOf(keyId);
      TransactionSynchronizationManager.registerSynchronization(
          new TransactionSynchronization() {
            @Override
            public void afterCommit() {
              liveKeys.invalidate(hash);
            }
          });
    }
    return revoked;
  }

  /** Every scope a key may be given: the named scopes and the wildcard. */
  public static boolean isKnownScope(String scope) {
    return Scope.ALL.equals(scope) || Scope.fromValue(scope).isPresent();
  }

  static String hash(String plaintext) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(plaintext.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
