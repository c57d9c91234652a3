package com.crmflow.api.embedded;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link EmbeddedPartUnavailable} as Spring Boot reports a failed start: what, and what
 * to do.
 */
class EmbeddedPartFailureAnalyzer extends AbstractFailureAnalyzer<EmbeddedPartUnavailable> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, EmbeddedPartUnavailable cause) {
    return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
  }
}
