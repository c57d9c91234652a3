package com.crmflow.api.secret;

import com.crmflow.api.config.CrmProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Encrypts integration secrets at rest with AES-256-GCM. The key is {@code crm.secrets.key}
 * (base64, 32 bytes; every api-server of a deployment needs the same one) or, when unset, a key
 * generated once into {@code <crm.data-dir>/secrets.key}.
 */
@Component
public class SecretCipher {

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecureRandom random = new SecureRandom();
  private final SecretKeySpec key;

  SecretCipher(@Value("${crm.secrets.key:}") String configuredKey, CrmProperties properties) {
    byte[] bytes =
        configuredKey.isBlank()
            ? keyFile(properties.dataDir().resolve("secrets.key"))
            : Base64.getDecoder().decode(configuredKey.trim());
    if (bytes.length != 32) {
      throw new IllegalStateException("crm.secrets.key must be 32 bytes, base64-encoded");
    }
    this.key = new SecretKeySpec(bytes, "AES");
  }

  public byte[] encrypt(String plain) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM unavailable", e);
    }
  }

  public String decrypt(byte[] stored) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
      byte[] plain = cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES);
      return new String(plain, StandardCharsets.UTF_8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("stored secret cannot be decrypted with this key", e);
    }
  }

  private byte[] keyFile(Path file) {
    try {
      if (!Files.exists(file)) {
        Files.createDirectories(file.getParent());
        byte[] fresh = new byte[32];
        random.nextBytes(fresh);
        Files.writeString(
            file,
            Base64.getEncoder().encodeToString(fresh),
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE);
        file.toFile().setReadable(false, false);
        file.toFile().setReadable(true, true);
      }
      return Base64.getDecoder().decode(Files.readString(file).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the secrets key " + file, e);
    }
  }
}
