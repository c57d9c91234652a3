package com.crmflow.api.temporal;

import com.crmflow.workflow.CrmSearchAttributes;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

/**
 * Makes sure the namespace knows the service's {@link CrmSearchAttributes} before any workflow is
 * started with them (a start naming an unknown one is refused). The embedded dev server registers
 * them as it starts; a configured server (compose, a cluster) gets the missing ones added here. A
 * server that does not allow it (Temporal Cloud, a cluster without operator rights for this key) is
 * told of in the log with the command an operator runs instead.
 */
@Component
class SearchAttributeRegistration implements InitializingBean {

  private static final Logger log = LoggerFactory.getLogger(SearchAttributeRegistration.class);

  private final WorkflowClient client;

  SearchAttributeRegistration(WorkflowClient client) {
    this.client = client;
  }

  @Override
  public void afterPropertiesSet() {
    String namespace = client.getOptions().getNamespace();
    OperatorServiceStubs operator =
        OperatorServiceStubs.newServiceStubs(
            OperatorServiceStubsOptions.newBuilder()
                .setChannel(client.getWorkflowServiceStubs().getRawChannel())
                .validateAndBuildWithDefaults());
    Map<String, IndexedValueType> missing = new LinkedHashMap<>();
    try {
      Set<String> known =
          operator
              .blockingStub()
              .listSearchAttributes(
                  ListSearchAttributesRequest.newBuilder().setNamespace(namespace).build())
              .getCustomAttributesMap()
              .keySet();
      CrmSearchAttributes.ALL.stream()
          .filter(key -> !known.contains(key.getName()))
          .forEach(key -> missing.put(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD));
      if (!missing.isEmpty()) {
        operator
            .blockingStub()
            .addSearchAttributes(
                AddSearchAttributesRequest.newBuilder()
                    .setNamespace(namespace)
                    .putAllSearchAttributes(missing)
                    .build());
        log.info("Registered search attributes {} in namespace {}", missing.keySet(), namespace);
      }
    } catch (RuntimeException e) {
      StringBuilder command = new StringBuilder("temporal operator search-attribute create");
      command.append(" --namespace ").append(namespace);
      CrmSearchAttributes.ALL.forEach(
          key -> command.append(" --name ").append(key.getName()).append(" --type Keyword"));
      log.error(
          "Could not check or register the search attributes {} in namespace {} ({}); workflows"
              + " cannot start until they exist. Register them with: {}",
          CrmSearchAttributes.namesAndTypes().keySet(),
          namespace,
          e.toString(),
          command);
    } finally {
      operator.shutdown();
    }
  }
}
