package com.crmflow.shared.secret;

import com.crmflow.shared.outbound.IntegrationProperties;
import com.crmflow.workflow.node.NodeSecrets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Encrypts secrets at rest with AES-256-GCM: chat bot tokens, webhook signing secrets, and the
 * secrets of canvas nodes ({@link NodeSecrets}). The key is {@code crm.secrets.key} (base64, 32
 * bytes) or the file {@code crm.secrets.key-file}, generated there when it does not exist yet.
 * Every api-server and worker of a deployment needs the same key: the worker unseals the credential
 * headers of http_request nodes. A process with neither setting has no key and says so when a
 * secret is used; in the {@code distributed} profile such a process, or one whose key file does not
 * exist, does not start.
 *
 * <p>A sealed value names the key that sealed it: {@code "ck" 0x01}, the key id (8 bytes, from a
 * hash of the key), the nonce, then the cipher text, the header bound as associated data. The
 * current key seals; the keys of {@code crm.secrets.previous-keys} still unseal, so that a key can
 * be rotated and the stored values re-sealed ({@link #needsReseal}, {@link #reseal}). A value
 * without a key id (the nonce first) unseals with any of the keys.
 */
@Component
public class SecretCipher {

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final byte[] MAGIC = {'c', 'k', 1};
  private static final int KEY_ID_BYTES = 8;
  private static final int HEADER_BYTES = MAGIC.length + KEY_ID_BYTES;

  /** The profile of a deployment whose processes must share one configured key. */
  public static final String DISTRIBUTED_PROFILE = "distributed";

  private final SecureRandom random = new SecureRandom();
  private final SecretKeySpec key;
  private final byte[] keyId;

  /** Every key this process can unseal with, the current one first, by key id (hex). */
  private final Map<String, SecretKeySpec> keys = new LinkedHashMap<>();

  @Autowired
  public SecretCipher(IntegrationProperties properties, Environment environment) {
    this(
        requireExplicitKey(properties.secrets(), environment),
        properties.secrets().keyFile(),
        properties.secrets().previousKeys());
  }

  public SecretCipher(String configuredKey, String keyFile) {
    this(configuredKey, keyFile, List.of());
  }

  /**
   * @param previousKeys keys (base64) that unseal but do not seal
   */
  public SecretCipher(String configuredKey, String keyFile, List<String> previousKeys) {
    byte[] bytes;
    if (configuredKey != null && !configuredKey.isBlank()) {
      bytes = decodeKey(configuredKey, "crm.secrets.key");
    } else if (keyFile != null && !keyFile.isBlank()) {
      bytes = keyFile(Path.of(keyFile));
    } else {
      bytes = null;
    }
    this.key = bytes == null ? null : new SecretKeySpec(bytes, "AES");
    this.keyId = bytes == null ? null : keyIdOf(bytes);
    if (bytes != null) {
      keys.put(HexFormat.of().formatHex(keyId), key);
    }
    if (previousKeys != null) {
      for (String previous : previousKeys) {
        if (previous == null || previous.isBlank()) {
          continue;
        }
        byte[] old = decodeKey(previous, "each of crm.secrets.previous-keys");
        keys.putIfAbsent(HexFormat.of().formatHex(keyIdOf(old)), new SecretKeySpec(old, "AES"));
      }
    }
  }

  /**
   * The key setting, checked: in the distributed profile a process that would make its own key (no
   * {@code crm.secrets.key} and no key file yet) does not start.
   */
  private static String requireExplicitKey(
      IntegrationProperties.Secrets secrets, Environment environment) {
    if (!environment.matchesProfiles(DISTRIBUTED_PROFILE)
        || (secrets.key() != null && !secrets.key().isBlank())) {
      return secrets.key();
    }
    String file = secrets.keyFile();
    if (file != null && !file.isBlank() && Files.isRegularFile(Path.of(file))) {
      return secrets.key();
    }
    throw new IllegalStateException(
        "The distributed profile needs an explicit secrets key: set crm.secrets.key"
            + " (CRM_SECRETS_KEY, 32 bytes base64) or crm.secrets.key-file (CRM_SECRETS_KEY_FILE)"
            + " to a file that exists"
            + (file == null || file.isBlank() ? "" : " (" + file + " does not)")
            + ". Every api-server and workflow-worker must share one key: a key one process makes"
            + " for itself cannot unseal the secrets another process sealed.");
  }

  /** The id (hex) of the key that seals; null when this process has no key. */
  public String currentKeyId() {
    return keyId == null ? null : HexFormat.of().formatHex(keyId);
  }

  public byte[] encrypt(String plain) {
    return encrypt(plain, null);
  }

  public String decrypt(byte[] stored) {
    return decrypt(stored, null);
  }

  /** Whether a stored value was sealed with another key than the current one. */
  public boolean needsReseal(byte[] stored) {
    return keyId == null || !Arrays.equals(keyIdIn(stored), keyId);
  }

  /**
   * Whether a sealed node secret was sealed with another key than the current one.
   *
   * @throws IllegalStateException when the sealed value is damaged (its cipher text is not base64)
   */
  public boolean needsReseal(String sealed) {
    return NodeSecrets.isSealed(sealed) && needsReseal(cipherBytes(sealed));
  }

  /** The stored value sealed again with the current key. */
  public byte[] reseal(byte[] stored) {
    return encrypt(decrypt(stored), null);
  }

  /** The sealed node secret sealed again with the current key, for the same tenant. */
  public String reseal(UUID tenantId, String sealed) {
    return seal(tenantId, unseal(tenantId, sealed));
  }

  /**
   * A node secret of this tenant, sealed as {@link NodeSecrets} describes. The tenant is the
   * associated data: a sealed value copied into another tenant's canvas does not unseal.
   */
  public String seal(UUID tenantId, String plain) {
    byte[] sealed = encrypt(plain, associatedData(tenantId));
    return NodeSecrets.sealed(Base64.getEncoder().encodeToString(sealed), plain);
  }

  /**
   * The plain text of a sealed node secret.
   *
   * @throws IllegalStateException when it was sealed with another key or for another tenant
   */
  public String unseal(UUID tenantId, String sealed) {
    return decrypt(cipherBytes(sealed), associatedData(tenantId));
  }

  /**
   * {@code value} sealed for one purpose and tenant, as URL-safe base64 without padding: a token
   * that tells its holder nothing, and that only a process with this deployment's key opens, for
   * the same purpose and tenant ({@link #openToken}).
   *
   * @throws IllegalStateException when this process has no key
   */
  public String sealToken(String purpose, UUID tenantId, String value) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(encrypt(value, tokenData(purpose, tenantId)));
  }

  /**
   * The value of a token {@link #sealToken} made for this purpose and tenant; empty for anything
   * else (another purpose, tenant or deployment, damaged, not a token at all, or no key here).
   */
  public Optional<String> openToken(String purpose, UUID tenantId, String token) {
    if (key == null || token == null || token.isBlank()) {
      return Optional.empty();
    }
    try {
      byte[] sealed = Base64.getUrlDecoder().decode(token.trim());
      return Optional.of(decrypt(sealed, tokenData(purpose, tenantId)));
    } catch (IllegalArgumentException | IllegalStateException notOurs) {
      return Optional.empty();
    }
  }

  /**
   * HMAC-SHA256 of {@code value} under this deployment's key, for one purpose, as URL-safe base64
   * without padding: the same for the same value while the key stays, and no clue to the value for
   * whoever lacks the key. A process without a key answers the plain SHA-256 of the same input.
   */
  public String keyedHash(String purpose, String value) {
    byte[] input = (purpose + "\n" + value).getBytes(StandardCharsets.UTF_8);
    try {
      byte[] hash;
      if (key == null) {
        hash = MessageDigest.getInstance("SHA-256").digest(input);
      } else {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getEncoded(), "HmacSHA256"));
        hash = mac.doFinal(input);
      }
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 unavailable", e);
    }
  }

  private static byte[] tokenData(String purpose, UUID tenantId) {
    return ("token:" + purpose + ":tenant:" + tenantId).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] cipherBytes(String sealed) {
    try {
      return Base64.getDecoder().decode(NodeSecrets.cipherText(sealed));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("the sealed secret is damaged", e);
    }
  }

  private byte[] encrypt(String plain, byte[] associatedData) {
    SecretKeySpec key = requireKey();
    byte[] header = ByteBuffer.allocate(HEADER_BYTES).put(MAGIC).put(keyId).array();
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(header);
      if (associatedData != null) {
        cipher.updateAAD(associatedData);
      }
      byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.allocate(HEADER_BYTES + NONCE_BYTES + sealed.length)
          .put(header)
          .put(nonce)
          .put(sealed)
          .array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM unavailable", e);
    }
  }

  private String decrypt(byte[] stored, byte[] associatedData) {
    requireKey();
    byte[] id = keyIdIn(stored);
    if (id != null) {
      SecretKeySpec named = keys.get(HexFormat.of().formatHex(id));
      if (named != null) {
        String plain =
            open(named, stored, HEADER_BYTES, Arrays.copyOf(stored, HEADER_BYTES), associatedData);
        if (plain != null) {
          return plain;
        }
      }
    }
    // without a key id (the nonce first), or by chance starting like a header
    if (stored.length > NONCE_BYTES) {
      for (SecretKeySpec candidate : keys.values()) {
        String plain = open(candidate, stored, 0, null, associatedData);
        if (plain != null) {
          return plain;
        }
      }
    }
    if (stored.length <= NONCE_BYTES) {
      throw new IllegalStateException("the stored secret is damaged");
    }
    throw new IllegalStateException(
        id != null && !keys.containsKey(HexFormat.of().formatHex(id))
            ? "a stored secret was sealed with key "
                + HexFormat.of().formatHex(id)
                + ", which is neither this process's crm.secrets.key nor one of its"
                + " crm.secrets.previous-keys"
            : "a stored secret cannot be decrypted with this process's crm.secrets.key (nor its"
                + " crm.secrets.previous-keys): it is damaged or was sealed with another key");
  }

  /** The plain text, or null when this key does not open the value. */
  private static String open(
      SecretKeySpec key, byte[] stored, int offset, byte[] header, byte[] associatedData) {
    // shorter than nonce and tag: no key opens it (and GCM would not say so, it would throw)
    if (stored.length < offset + NONCE_BYTES + TAG_BITS / 8) {
      return null;
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, offset, NONCE_BYTES));
      if (header != null) {
        cipher.updateAAD(header);
      }
      if (associatedData != null) {
        cipher.updateAAD(associatedData);
      }
      int start = offset + NONCE_BYTES;
      byte[] plain = cipher.doFinal(stored, start, stored.length - start);
      return new String(plain, StandardCharsets.UTF_8);
    } catch (AEADBadTagException wrongKey) {
      return null;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM unavailable", e);
    }
  }

  /** The key id a stored value names, or null for a value without one. */
  private static byte[] keyIdIn(byte[] stored) {
    if (stored.length <= HEADER_BYTES + NONCE_BYTES
        || !Arrays.equals(stored, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      return null;
    }
    return Arrays.copyOfRange(stored, MAGIC.length, HEADER_BYTES);
  }

  private static byte[] keyIdOf(byte[] key) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update("crmflow secrets key id:".getBytes(StandardCharsets.UTF_8));
      return Arrays.copyOf(sha.digest(key), KEY_ID_BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private SecretKeySpec requireKey() {
    if (key == null) {
      throw new IllegalStateException(
          "this process has no secrets key: set crm.secrets.key (CRM_SECRETS_KEY) or"
              + " crm.secrets.key-file (CRM_SECRETS_KEY_FILE) to the api-server's key");
    }
    return key;
  }

  private static byte[] associatedData(UUID tenantId) {
    return ("tenant:" + tenantId).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] decodeKey(String base64, String source) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64.trim());
    } catch (IllegalArgumentException e) {
      bytes = new byte[0];
    }
    if (bytes.length != 32) {
      throw new IllegalStateException(source + " must hold 32 bytes, base64-encoded");
    }
    return bytes;
  }

  /**
   * Reads the key file, or creates it: written to a private temporary file first and linked into
   * place, so that processes starting together end up with one key (the loser of the race reads the
   * winner's).
   */
  private byte[] keyFile(Path file) {
    try {
      if (!Files.exists(file)) {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        byte[] fresh = new byte[32];
        random.nextBytes(fresh);
        Path staged = Files.createTempFile(directory, ".secrets", ".key");
        try {
          setOwnerOnly(staged);
          Files.writeString(staged, Base64.getEncoder().encodeToString(fresh));
          Files.createLink(file, staged);
        } catch (FileAlreadyExistsException raced) {
          // another process created it first: its key is the deployment's
        } finally {
          Files.deleteIfExists(staged);
        }
      }
      return decodeKey(Files.readString(file), "the secrets key file " + file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the secrets key file " + file, e);
    }
  }

  private static void setOwnerOnly(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException notPosix) {
      file.toFile().setReadable(false, false);
      file.toFile().setReadable(true, true);
    }
  }
}
