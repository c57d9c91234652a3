package com.crmflow.worker;

import com.crmflow.worker.activity.IntegrationActivitiesConfig;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The worker as api-server hosts it in its own process on the embedded defaults: the registration
 * of the workflows and activities on the process's workers and the integration activities
 * (http_request, email), with the shared beans they use. The one class of this module that
 * api-server names; which task queues a process actually polls is the Temporal starter's
 * configuration (in the {@code distributed} profile api-server polls only {@code crm}).
 */
@Configuration
@Import({IntegrationActivitiesConfig.class, WorkerRegistration.class})
public class InProcessWorker {}
