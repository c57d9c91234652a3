package com.crmflow.api.nodetype;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** The node types only the tests know: import it to have them in the service. */
@TestConfiguration
public class TestNodeTypes {

  @Bean
  AuditStampNode auditStampNode() {
    return new AuditStampNode();
  }
}
