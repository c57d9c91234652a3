package com.crmflow.api.nodetype;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * {@link AuditStampNode} as a node type packaged on its own: the auto-configuration a jar of node
 * types lists in its {@code
 * META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}, so that a
 * process with the jar on its {@code loader.path} has the type as a bean. Component scanning skips
 * it (it is an {@code @AutoConfiguration}); the API tests import {@link TestNodeTypes} instead.
 */
@AutoConfiguration
public class AuditStampAutoConfiguration {

  @Bean
  AuditStampNode auditStampNode() {
    return new AuditStampNode();
  }
}
