package com.crmflow.api.embedded;

import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.spring.boot.TemporalOptionsCustomizer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * When the embedded Temporal runs in this JVM, the Temporal starter's client and workers talk to it
 * in-process instead of through its TCP port (see {@link EmbeddedTemporal}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBean(name = EmbeddedTemporal.BEAN_NAME)
class InProcessTemporalChannel {

  @Bean
  TemporalOptionsCustomizer<WorkflowServiceStubsOptions.Builder> inProcessTemporalStubs(
      @Qualifier(EmbeddedTemporal.BEAN_NAME) EmbeddedTemporal temporal, Environment environment) {
    String target = environment.getProperty("spring.temporal.connection.target");
    if (!temporal.target().equals(target)) {
      // a target set later (a test's own server) wins over the embedded one
      return builder -> builder;
    }
    // a channel replaces the target; the two together are refused
    return builder -> builder.setTarget(null).setChannel(temporal.channel());
  }
}
