package com.crmflow.api;

import com.crmflow.shared.SharedServicesConfig;
import com.crmflow.worker.InProcessWorker;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The API server. On embedded defaults it also hosts the workflows and the integration activities
 * (in-process worker), so one process runs everything.
 */
@SpringBootApplication
@EnableScheduling
@Import({SharedServicesConfig.class, InProcessWorker.class})
public class CrmApiApplication {

  public static void main(String[] args) {
    SpringApplication.run(CrmApiApplication.class, args);
  }
}
