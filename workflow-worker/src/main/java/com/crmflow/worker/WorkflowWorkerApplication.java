package com.crmflow.worker;

import com.crmflow.shared.secret.SecretCipher;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * Stand-alone worker process: the interpreter workflows and the integration activities (HTTP,
 * SMTP), no HTTP API and no database. Settings come from {@code workflow-worker.properties}. It
 * always runs in the {@code distributed} profile: beside api-servers whose secrets key it shares.
 */
@SpringBootApplication
public class WorkflowWorkerApplication {

  public static void main(String[] args) {
    new SpringApplicationBuilder(WorkflowWorkerApplication.class)
        .properties("spring.config.name=workflow-worker")
        .profiles(SecretCipher.DISTRIBUTED_PROFILE)
        .run(args);
  }
}
