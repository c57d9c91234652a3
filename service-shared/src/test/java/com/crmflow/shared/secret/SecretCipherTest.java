package com.crmflow.shared.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.shared.outbound.IntegrationProperties;
import com.crmflow.workflow.node.NodeSecrets;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.StandardEnvironment;

class SecretCipherTest {

  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

  @Test
  void aSealedSecretUnsealsForItsTenantOnly() {
    SecretCipher cipher = new SecretCipher(KEY, "");
    UUID tenant = UUID.randomUUID();
    String sealed = cipher.seal(tenant, "Bearer {{trigger.token}} and more");

    assertThat(sealed)
        .startsWith(NodeSecrets.SEALED_PREFIX)
        .endsWith(" {{trigger.token}}")
        .doesNotContain("Bearer");
    assertThat(cipher.unseal(tenant, sealed)).isEqualTo("Bearer {{trigger.token}} and more");
    assertThatThrownBy(() -> cipher.unseal(UUID.randomUUID(), sealed))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot be decrypted");
  }

  @Test
  void anotherKeyCannotUnseal() {
    UUID tenant = UUID.randomUUID();
    String sealed = new SecretCipher(KEY, "").seal(tenant, "s3cret");
    byte[] other = new byte[32];
    other[0] = 1;
    SecretCipher wrong = new SecretCipher(Base64.getEncoder().encodeToString(other), "");
    assertThatThrownBy(() -> wrong.unseal(tenant, sealed)).hasMessageContaining("crm.secrets.key");
  }

  @Test
  void processesSharingAKeyFileShareTheKey(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keys/secrets.key");
    SecretCipher first = new SecretCipher("", file.toString());
    SecretCipher second = new SecretCipher("", file.toString());
    UUID tenant = UUID.randomUUID();

    assertThat(second.unseal(tenant, first.seal(tenant, "shared"))).isEqualTo("shared");
    assertThat(Base64.getDecoder().decode(Files.readString(file).trim())).hasSize(32);
    assertThat(Files.getPosixFilePermissions(file))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    try (var left = Files.list(file.getParent())) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("secrets.key");
    }
  }

  @Test
  void withoutAKeyUsingASecretSaysWhatToSet() {
    SecretCipher none = new SecretCipher("", "");
    assertThatThrownBy(() -> none.unseal(UUID.randomUUID(), NodeSecrets.SEALED_PREFIX + "AAAA"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("CRM_SECRETS_KEY")
        .hasMessageContaining("CRM_SECRETS_KEY_FILE");
  }

  @Test
  void aMalformedKeyStopsTheStartNamingTheProperty() {
    assertThatThrownBy(() -> new SecretCipher("c2hvcnQ=", ""))
        .hasMessageContaining("crm.secrets.key must hold 32 bytes");
  }

  private static String key(int first) {
    byte[] bytes = new byte[32];
    bytes[0] = (byte) first;
    return Base64.getEncoder().encodeToString(bytes);
  }

  @Test
  void theCurrentKeySealsAndPreviousKeysStillUnseal() {
    UUID tenant = UUID.randomUUID();
    SecretCipher old = new SecretCipher(key(1), "");
    String sealedOld = old.seal(tenant, "Bearer old");
    byte[] storedOld = old.encrypt("bot-token");
    SecretCipher rotated = new SecretCipher(key(2), "", List.of(key(1)));

    assertThat(rotated.currentKeyId()).isNotEqualTo(old.currentKeyId()).hasSize(16);
    assertThat(rotated.unseal(tenant, sealedOld)).isEqualTo("Bearer old");
    assertThat(rotated.decrypt(storedOld)).isEqualTo("bot-token");
    assertThat(rotated.needsReseal(sealedOld)).isTrue();
    assertThat(rotated.needsReseal(storedOld)).isTrue();

    String resealed = rotated.reseal(tenant, sealedOld);
    byte[] restored = rotated.reseal(storedOld);
    assertThat(rotated.needsReseal(resealed)).isFalse();
    assertThat(rotated.needsReseal(restored)).isFalse();
    SecretCipher newOnly = new SecretCipher(key(2), "");
    assertThat(newOnly.unseal(tenant, resealed)).isEqualTo("Bearer old");
    assertThat(newOnly.decrypt(restored)).isEqualTo("bot-token");
    assertThatThrownBy(() -> newOnly.unseal(tenant, sealedOld))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("sealed with key " + old.currentKeyId())
        .hasMessageContaining("crm.secrets.previous-keys");
    assertThatThrownBy(() -> old.unseal(tenant, resealed))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aSealedValueNamesItsKeyInItsFirstBytes() {
    SecretCipher cipher = new SecretCipher(key(3), "");
    byte[] stored = cipher.encrypt("x");
    assertThat(new String(stored, 0, 2, StandardCharsets.US_ASCII)).isEqualTo("ck");
    assertThat(HexFormat.of().formatHex(stored, 3, 11)).isEqualTo(cipher.currentKeyId());
    stored[stored.length - 1] ^= 1;
    assertThatThrownBy(() -> cipher.decrypt(stored))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged or was sealed with another key");
  }

  /** Nonce, cipher text and tag, no key id: a value sealed without a key id. */
  private static byte[] sealedWithoutKeyId(String key, String plain, byte[] associatedData)
      throws Exception {
    byte[] nonce = new byte[12];
    nonce[5] = 42;
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(
        Cipher.ENCRYPT_MODE,
        new SecretKeySpec(Base64.getDecoder().decode(key), "AES"),
        new GCMParameterSpec(128, nonce));
    if (associatedData != null) {
      cipher.updateAAD(associatedData);
    }
    byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
    return ByteBuffer.allocate(12 + sealed.length).put(nonce).put(sealed).array();
  }

  @Test
  void valuesSealedWithoutAKeyIdUnsealWithTheCurrentOrAPreviousKey() throws Exception {
    UUID tenant = UUID.randomUUID();
    byte[] raw = sealedWithoutKeyId(key(4), "legacy-token", null);
    String node =
        NodeSecrets.SEALED_PREFIX
            + Base64.getEncoder()
                .encodeToString(
                    sealedWithoutKeyId(
                        key(4),
                        "Bearer legacy",
                        ("tenant:" + tenant).getBytes(StandardCharsets.UTF_8)));

    SecretCipher same = new SecretCipher(key(4), "");
    assertThat(same.decrypt(raw)).isEqualTo("legacy-token");
    assertThat(same.unseal(tenant, node)).isEqualTo("Bearer legacy");
    assertThat(same.needsReseal(raw)).isTrue();

    SecretCipher rotated = new SecretCipher(key(5), "", List.of(key(4)));
    assertThat(rotated.decrypt(raw)).isEqualTo("legacy-token");
    assertThat(rotated.unseal(tenant, node)).isEqualTo("Bearer legacy");
    assertThat(new SecretCipher(key(5), "").decrypt(rotated.reseal(raw))).isEqualTo("legacy-token");
  }

  @Test
  void aMalformedPreviousKeyStopsTheStart() {
    assertThatThrownBy(() -> new SecretCipher(KEY, "", List.of("c2hvcnQ=")))
        .hasMessageContaining("crm.secrets.previous-keys must hold 32 bytes");
  }

  private static IntegrationProperties secrets(String key, String keyFile) {
    return new IntegrationProperties(
        new IntegrationProperties.Mail("a@b.c"),
        new IntegrationProperties.Http(false, null),
        new IntegrationProperties.Secrets(key, keyFile, List.of()));
  }

  @Test
  void theDistributedProfileNeedsAKeyItDoesNotMake(@TempDir Path dir) throws Exception {
    StandardEnvironment distributed = new StandardEnvironment();
    distributed.setActiveProfiles("distributed");
    Path missing = dir.resolve("secrets.key");

    assertThatThrownBy(() -> new SecretCipher(secrets("", missing.toString()), distributed))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("distributed profile needs an explicit secrets key")
        .hasMessageContaining(missing + " does not")
        .hasMessageContaining("cannot unseal the secrets another process sealed");
    assertThat(missing).doesNotExist();
    assertThatThrownBy(() -> new SecretCipher(secrets(null, null), distributed))
        .hasMessageContaining("CRM_SECRETS_KEY");

    assertThat(new SecretCipher(secrets(KEY, missing.toString()), distributed).currentKeyId())
        .isNotNull();
    Files.writeString(missing, KEY);
    assertThat(new SecretCipher(secrets("", missing.toString()), distributed).currentKeyId())
        .isEqualTo(new SecretCipher(KEY, "").currentKeyId());

    Path made = dir.resolve("embedded/secrets.key");
    new SecretCipher(secrets("", made.toString()), new StandardEnvironment());
    assertThat(made).exists();
  }
}
