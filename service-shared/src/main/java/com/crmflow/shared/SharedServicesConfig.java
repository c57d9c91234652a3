package com.crmflow.shared;

import com.crmflow.shared.outbound.IntegrationProperties;
import com.crmflow.shared.outbound.OutboundHttpClient;
import com.crmflow.shared.secret.SecretCipher;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/**
 * The beans api-server and the workflow-worker both use: the outbound HTTP client with its
 * destination policy, the secret cipher, and their settings ({@link IntegrationProperties}).
 * Imported by api-server and by the worker's integration activities.
 */
@Configuration
@EnableConfigurationProperties(IntegrationProperties.class)
@ComponentScan(basePackageClasses = {OutboundHttpClient.class, SecretCipher.class})
public class SharedServicesConfig {}
