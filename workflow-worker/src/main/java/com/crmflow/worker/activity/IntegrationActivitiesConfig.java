package com.crmflow.worker.activity;

import com.crmflow.worker.secret.SecretCipher;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;

/**
 * The integration activities (outbound I/O) and the cipher that unseals their secrets. Imported by
 * the worker application and by api-server's in-process worker on embedded defaults.
 */
@Configuration
@EnableConfigurationProperties(IntegrationProperties.class)
@ComponentScan(basePackageClasses = {IntegrationActivitiesConfig.class, SecretCipher.class})
@PropertySource("classpath:smtp-defaults.properties")
public class IntegrationActivitiesConfig {}
