package com.crmflow.api.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiTest;
import com.crmflow.worker.WorkerRegistration;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.ChatActivities;
import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.action.HttpRequestActivities;
import com.crmflow.workflow.action.RecordWatchActivities;
import com.crmflow.workflow.action.SendWindowActivities;
import com.crmflow.workflow.contract.RunRecorderActivities;
import com.crmflow.workflow.registration.NodeExecutors;
import com.crmflow.workflow.registration.WorkflowImplementations;
import com.crmflow.workflow.schedule.ScheduleActivities;
import com.crmflow.workflow.webhook.WebhookActivities;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Which activities each shape of the service hosts on which task queue: this embedded service as it
 * registered them, the distributed api-server and the stand-alone worker as their property files'
 * queues and {@code crm.runs.local-activities} make them.
 */
class WorkerShapesTest extends ApiTest {

  private static final List<Class<?>> CRM =
      List.of(
          RunRecorderActivities.class,
          CrmRecordActivities.class,
          EmailBookActivities.class,
          ChatActivities.class,
          ScheduleActivities.class,
          WebhookActivities.class,
          RecordWatchActivities.class,
          SendWindowActivities.class);

  private static final List<Class<?>> INTEGRATIONS =
      List.of(HttpRequestActivities.class, EmailActivities.class);

  /** What a run with local activities calls on the worker that runs it. */
  private static final List<Class<?>> LOCAL =
      List.of(
          RunRecorderActivities.class,
          HttpRequestActivities.class,
          CrmRecordActivities.class,
          EmailBookActivities.class,
          RecordWatchActivities.class,
          SendWindowActivities.class);

  @Autowired private WorkerRegistration registration;

  @Test
  void theEmbeddedServiceHostsEveryActivityAndTheLocalOnesOnAutomation() {
    Map<String, List<Class<?>>> hosted = registration.hosted();

    assertThat(hosted)
        .containsOnlyKeys(TaskQueues.AUTOMATION, TaskQueues.INTEGRATIONS, TaskQueues.CRM);
    assertThat(hosted.get(TaskQueues.AUTOMATION)).containsExactlyInAnyOrderElementsOf(LOCAL);
    assertThat(hosted.get(TaskQueues.INTEGRATIONS))
        .containsExactlyInAnyOrderElementsOf(INTEGRATIONS);
    assertThat(hosted.get(TaskQueues.CRM)).containsExactlyInAnyOrderElementsOf(CRM);
  }

  @Test
  void theDistributedApiServerHostsTheCrmActivitiesOnly() throws IOException {
    Properties distributed = properties("application-distributed.properties");

    Map<String, List<Class<?>>> hosted = hostedBy(distributed);

    assertThat(hosted).containsOnlyKeys(TaskQueues.CRM);
    assertThat(hosted.get(TaskQueues.CRM)).containsExactlyInAnyOrderElementsOf(CRM);
  }

  @Test
  void theStandAloneWorkerHostsTheIntegrationActivitiesAndNoneForLocalCalls() throws IOException {
    Properties worker = properties("workflow-worker.properties");

    Map<String, List<Class<?>>> hosted = hostedBy(worker);

    assertThat(hosted).containsOnlyKeys(TaskQueues.AUTOMATION, TaskQueues.INTEGRATIONS);
    assertThat(hosted.get(TaskQueues.AUTOMATION)).isEmpty();
    assertThat(hosted.get(TaskQueues.INTEGRATIONS))
        .containsExactlyInAnyOrderElementsOf(INTEGRATIONS);
  }

  /** What a process of these settings registers, with the built-in node types. */
  private static Map<String, List<Class<?>>> hostedBy(Properties settings) {
    List<String> queues = new ArrayList<>();
    for (int n = 0; settings.containsKey("spring.temporal.workers[" + n + "].task-queue"); n++) {
      queues.add(settings.getProperty("spring.temporal.workers[" + n + "].task-queue"));
    }
    return WorkerRegistration.activitiesByQueue(
        WorkflowImplementations.activities(NodeExecutors.catalog()),
        queues,
        Boolean.parseBoolean(settings.getProperty("crm.runs.local-activities", "false")));
  }

  private static Properties properties(String resource) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = WorkerShapesTest.class.getClassLoader().getResourceAsStream(resource)) {
      properties.load(in);
    }
    return properties;
  }
}
