package com.crmflow.worker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Stand-alone worker process: workflows and integration activities, no HTTP API. */
@SpringBootApplication
public class WorkflowWorkerApplication {

  public static void main(String[] args) {
    SpringApplication.run(WorkflowWorkerApplication.class, args);
  }
}
