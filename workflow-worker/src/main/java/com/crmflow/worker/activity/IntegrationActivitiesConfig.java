package com.crmflow.worker.activity;

import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;

/**
 * The integration activities (outbound I/O). Imported by the worker application and by api-server's
 * in-process worker on embedded defaults.
 */
@Configuration
@ComponentScan
@PropertySource("classpath:smtp-defaults.properties")
public class IntegrationActivitiesConfig {}
