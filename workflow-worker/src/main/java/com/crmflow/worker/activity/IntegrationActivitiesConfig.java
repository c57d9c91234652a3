package com.crmflow.worker.activity;

import com.crmflow.shared.SharedServicesConfig;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;

/**
 * The integration activities (outbound I/O), with the shared beans they use: the outbound HTTP
 * client and the cipher that unseals their secrets ({@link SharedServicesConfig}). Imported by the
 * worker application and by api-server's in-process worker on embedded defaults.
 */
@Configuration
@Import(SharedServicesConfig.class)
@ComponentScan(basePackageClasses = IntegrationActivitiesConfig.class)
@PropertySource("classpath:smtp-defaults.properties")
public class IntegrationActivitiesConfig {}
