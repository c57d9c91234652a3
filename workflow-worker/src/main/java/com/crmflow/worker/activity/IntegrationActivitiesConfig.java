package com.crmflow.worker.activity;

import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/**
 * The integration activities (outbound I/O). Imported by the worker application and by api-server's
 * in-process worker on embedded defaults.
 */
@Configuration
@ComponentScan
public class IntegrationActivitiesConfig {}
