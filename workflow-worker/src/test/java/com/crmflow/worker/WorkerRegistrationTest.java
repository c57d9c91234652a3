package com.crmflow.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import com.crmflow.workflow.action.HttpRequestActivities;
import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.action.HttpResponseData;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import io.temporal.activity.ActivityInterface;
import io.temporal.spring.boot.autoconfigure.template.WorkersTemplate;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * What {@link WorkerRegistration} registers on a process's workers, from the beans of a Spring
 * context, on the workers of Temporal's test environment.
 */
class WorkerRegistrationTest {

  private final TestWorkflowEnvironment temporal = TestWorkflowEnvironment.newInstance();
  private AnnotationConfigApplicationContext context;

  @AfterEach
  void close() {
    if (context != null) {
      context.close();
    }
    temporal.close();
  }

  /** A node type that calls its own activity on the integrations queue. */
  @ActivityInterface
  public interface PartnerActivities {
    String tell(String note);
  }

  static final class PartnerActivitiesImpl implements PartnerActivities {
    @Override
    public String tell(String note) {
      return note;
    }
  }

  /** The built-in integration activities, which these tests register and never call. */
  static final class HttpStub implements HttpRequestActivities {
    @Override
    public HttpResponseData send(HttpRequestCommand command) {
      throw new UnsupportedOperationException();
    }
  }

  static final class EmailStub implements EmailActivities {
    @Override
    public EmailReceipt send(EmailMessage message) {
      throw new UnsupportedOperationException();
    }
  }

  static final class PartnerNode implements NodeExecutor {
    @Override
    public NodeDescriptor descriptor() {
      return new NodeDescriptor(
          new NodeType("partner_tell", false),
          "Tell the partner",
          NodeDescriptor.ACTIONS,
          "send",
          "tells the partner",
          List.of(),
          new NodeAccess(List.of(), List.of()),
          List.of());
    }

    @Override
    public List<NodeActivity<?>> activities() {
      return List.of(NodeActivity.on(TaskQueues.INTEGRATIONS, PartnerActivities.class));
    }

    @Override
    public Map<String, Object> execute(CanvasNode node, NodeRun run) {
      return Map.of();
    }
  }

  /** A worker application's context of these beans, its registration not yet run. */
  private WorkerRegistration registration(boolean runsLocalActivities, Object... beans) {
    context = new AnnotationConfigApplicationContext();
    for (Object bean : beans) {
      registerBean(bean);
    }
    context.refresh();
    return new WorkerRegistration(
        context.getBeanProvider(WorkersTemplate.class),
        context.getBeanProvider(NodeExecutor.class),
        context,
        runsLocalActivities);
  }

  @SuppressWarnings("unchecked")
  private <T> void registerBean(T bean) {
    context.registerBean(bean.getClass().getSimpleName(), (Class<T>) bean.getClass(), () -> bean);
  }

  private List<Worker> workers(String... queues) {
    return List.of(queues).stream().map(temporal::newWorker).toList();
  }

  @Test
  void aNodeTypesActivityLandsOnTheWorkerOfItsQueueBesideTheBuiltInOnes() {
    WorkerRegistration registration =
        registration(
            false, new PartnerNode(), new PartnerActivitiesImpl(), new HttpStub(), new EmailStub());

    registration.register(workers(TaskQueues.AUTOMATION, TaskQueues.INTEGRATIONS));

    assertThat(registration.hosted())
        .containsOnlyKeys(TaskQueues.AUTOMATION, TaskQueues.INTEGRATIONS);
    assertThat(registration.hosted().get(TaskQueues.AUTOMATION)).isEmpty();
    assertThat(registration.hosted().get(TaskQueues.INTEGRATIONS))
        .containsExactly(
            EmailActivities.class, HttpRequestActivities.class, PartnerActivities.class);
  }

  @Test
  void aDeclaredActivityWithNoBeanOnAPolledQueueFailsTheStartNamingIt() {
    WorkerRegistration registration =
        registration(false, new PartnerNode(), new HttpStub(), new EmailStub());

    assertThatThrownBy(() -> registration.register(workers(TaskQueues.INTEGRATIONS)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("task queue integrations")
        .hasMessageContaining(PartnerActivities.class.getName())
        .hasMessageNotContaining(HttpRequestActivities.class.getName());
    assertThat(registration.hosted()).isEmpty();
  }

  @Test
  void aQueueThisProcessDoesNotPollNeedsNoBean() {
    WorkerRegistration registration = registration(false, new PartnerNode());

    registration.register(workers(TaskQueues.AUTOMATION));

    assertThat(registration.hosted()).containsOnlyKeys(TaskQueues.AUTOMATION);
    assertThat(registration.hosted().get(TaskQueues.AUTOMATION)).isEmpty();
  }

  @Test
  void runningLocalActivitiesPutsTheLocalOnesOnTheAutomationWorkerWhoseBeansMustBeThere() {
    WorkerRegistration registration = registration(true, new HttpStub());

    assertThatThrownBy(() -> registration.register(workers(TaskQueues.AUTOMATION)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("task queue automation and runs local activities")
        .hasMessageContaining("com.crmflow.workflow.contract.RunRecorderActivities")
        .hasMessageNotContaining(HttpRequestActivities.class.getName())
        .hasMessageNotContaining(EmailActivities.class.getName());
  }
}
