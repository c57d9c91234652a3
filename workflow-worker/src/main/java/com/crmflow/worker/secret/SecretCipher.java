package com.crmflow.worker.secret;

import com.crmflow.worker.activity.IntegrationProperties;
import com.crmflow.workflow.canvas.NodeSecrets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Encrypts secrets at rest with AES-256-GCM: chat bot tokens, webhook signing secrets, and the
 * secrets of canvas nodes ({@link NodeSecrets}). The key is {@code crm.secrets.key} (base64, 32
 * bytes) or the file {@code crm.secrets.key-file}, generated there when it does not exist yet.
 * Every api-server and worker of a deployment needs the same key: the worker unseals the credential
 * headers of http_request nodes. A process with neither setting has no key and says so when a
 * secret is used.
 */
@Component
public class SecretCipher {

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecureRandom random = new SecureRandom();
  private final SecretKeySpec key;

  @Autowired
  public SecretCipher(IntegrationProperties properties) {
    this(properties.secrets().key(), properties.secrets().keyFile());
  }

  public SecretCipher(String configuredKey, String keyFile) {
    byte[] bytes;
    if (configuredKey != null && !configuredKey.isBlank()) {
      bytes = decodeKey(configuredKey, "crm.secrets.key");
    } else if (keyFile != null && !keyFile.isBlank()) {
      bytes = keyFile(Path.of(keyFile));
    } else {
      bytes = null;
    }
    this.key = bytes == null ? null : new SecretKeySpec(bytes, "AES");
  }

  public byte[] encrypt(String plain) {
    return encrypt(plain, null);
  }

  public String decrypt(byte[] stored) {
    return decrypt(stored, null);
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
    byte[] stored;
    try {
      stored = Base64.getDecoder().decode(NodeSecrets.cipherText(sealed));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("the sealed secret is damaged", e);
    }
    return decrypt(stored, associatedData(tenantId));
  }

  private byte[] encrypt(String plain, byte[] associatedData) {
    SecretKeySpec key = requireKey();
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      if (associatedData != null) {
        cipher.updateAAD(associatedData);
      }
      byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM unavailable", e);
    }
  }

  private String decrypt(byte[] stored, byte[] associatedData) {
    SecretKeySpec key = requireKey();
    if (stored.length <= NONCE_BYTES) {
      throw new IllegalStateException("the stored secret is damaged");
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
      if (associatedData != null) {
        cipher.updateAAD(associatedData);
      }
      byte[] plain = cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES);
      return new String(plain, StandardCharsets.UTF_8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "a stored secret cannot be decrypted with this process's crm.secrets.key", e);
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
