package com.crmflow.workflow;

import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;

/**
 * The SDK's in-memory test server for workflow tests, with the service's search attributes
 * registered as the real server has them (a workflow that sets an unknown one fails its task).
 */
public final class WorkflowTestEnvironments {

  private WorkflowTestEnvironments() {}

  public static TestWorkflowEnvironment newInstance() {
    return newInstance(TestEnvironmentOptions.newBuilder());
  }

  public static TestWorkflowEnvironment newInstance(TestEnvironmentOptions.Builder options) {
    for (var key : CrmSearchAttributes.ALL) {
      options.registerSearchAttribute(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    }
    return TestWorkflowEnvironment.newInstance(options.build());
  }
}
