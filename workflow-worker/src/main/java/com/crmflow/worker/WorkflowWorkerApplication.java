package com.crmflow.worker;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * Stand-alone worker process: the interpreter workflows and the integration activities (HTTP,
 * SMTP), no HTTP API and no database. Settings come from {@code workflow-worker.properties}.
 */
@SpringBootApplication
public class WorkflowWorkerApplication {

  public static void main(String[] args) {
    new SpringApplicationBuilder(WorkflowWorkerApplication.class)
        .properties("spring.config.name=workflow-worker")
        .run(args);
  }
}
