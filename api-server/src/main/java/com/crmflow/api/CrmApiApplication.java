package com.crmflow.api;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class CrmApiApplication {

  public static void main(String[] args) {
    SpringApplication.run(CrmApiApplication.class, args);
  }
}
