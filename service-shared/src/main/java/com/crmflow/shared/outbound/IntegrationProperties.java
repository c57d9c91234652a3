package com.crmflow.shared.outbound;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The settings of the integration activities under {@code crm.}, read by the stand-alone worker and
 * by api-server alike (its other settings are api-server's {@code CrmProperties}). Checked as the
 * process starts: a bad value stops it with a message naming the property.
 *
 * @param mail email nodes
 * @param http http_request nodes and chat messages
 * @param secrets the key that seals secrets at rest
 */
@ConfigurationProperties("crm")
@Validated
public record IntegrationProperties(
    @DefaultValue @Valid Mail mail, @DefaultValue @Valid Http http, @DefaultValue Secrets secrets) {

  /**
   * @param from the From address of email nodes
   */
  public record Mail(@DefaultValue("automation@crmflow.local") @NotBlank String from) {}

  /**
   * @param allowPrivateAddresses let outbound calls reach loopback, private and link-local
   *     addresses (local development and tests only)
   * @param trustedCertificates a PEM file of certificates trusted besides the JVM's CAs
   */
  public record Http(
      @DefaultValue("false") boolean allowPrivateAddresses, String trustedCertificates) {}

  /**
   * @param key 32 bytes, base64; wins over the key file
   * @param keyFile a file holding the key, generated there if it does not exist (in the distributed
   *     profile it must exist)
   * @param previousKeys keys (base64, comma-separated) that unseal but do not seal: they open what
   *     they sealed, for rotating the key
   */
  public record Secrets(String key, String keyFile, List<String> previousKeys) {
    public Secrets {
      previousKeys = previousKeys == null ? List.of() : List.copyOf(previousKeys);
    }
  }
}
