package com.crmflow.worker.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.workflow.canvas.NodeSecrets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
