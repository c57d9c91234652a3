package com.crmflow.worker;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.registration.NodeExecutors;
import com.crmflow.workflow.registration.WorkflowImplementations;
import io.temporal.spring.boot.autoconfigure.template.WorkersTemplate;
import io.temporal.worker.Worker;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Registers on each Temporal worker of this process, by its task queue, what it hosts, before the
 * Temporal starter starts the workers: on the automation worker the workflows ({@link
 * WorkflowImplementations}); on every worker the process's beans that implement an activity
 * declared for its queue ({@link WorkflowImplementations#activities}: the engine's and each node
 * type's {@link NodeExecutor#activities}), and on the automation worker of a process whose runs
 * call activities locally ({@code crm.runs.local-activities}) those declared {@link
 * NodeActivity#local() local}. The property files name only the queues a process polls and their
 * capacities. Used by the worker application and by api-server's in-process worker.
 *
 * <p>Its runs run the built-in node types and every {@link NodeExecutor} bean of the process, as
 * api-server's API accepts them ({@link NodeExecutors#with}). The catalog is made once, here,
 * before the worker polls: every run of the worker's life sees the same types.
 */
@Component
public class WorkerRegistration implements SmartInitializingSingleton {

  private final ObjectProvider<WorkersTemplate> workers;
  private final ObjectProvider<NodeExecutor> executors;
  private final ListableBeanFactory beans;
  private final boolean runsLocalActivities;
  private final Map<String, List<Class<?>>> hosted = new LinkedHashMap<>();

  WorkerRegistration(
      ObjectProvider<WorkersTemplate> workers,
      ObjectProvider<NodeExecutor> executors,
      ListableBeanFactory beans,
      @Value("${crm.runs.local-activities:true}") boolean runsLocalActivities) {
    this.workers = workers;
    this.executors = executors;
    this.beans = beans;
    this.runsLocalActivities = runsLocalActivities;
  }

  @Override
  public void afterSingletonsInstantiated() {
    workers.ifAvailable(template -> register(template.getWorkers()));
  }

  /**
   * Registers on each of these workers what its queue hosts.
   *
   * @throws IllegalStateException a worker's queue has an activity that no bean implements
   */
  void register(Collection<Worker> polled) {
    NodeCatalog catalog = NodeExecutors.with(executors.orderedStream().toList());
    Map<String, List<Class<?>>> plan =
        activitiesByQueue(
            WorkflowImplementations.activities(catalog),
            polled.stream().map(Worker::getTaskQueue).toList(),
            runsLocalActivities);
    for (Worker worker : polled) {
      String queue = worker.getTaskQueue();
      if (TaskQueues.AUTOMATION.equals(queue)) {
        WorkflowImplementations.registerOn(worker, catalog);
      }
      List<Class<?>> interfaces = plan.get(queue);
      Collection<Object> implementations = implementations(queue, interfaces);
      if (!implementations.isEmpty()) {
        worker.registerActivitiesImplementations(implementations.toArray());
      }
      hosted.put(queue, interfaces);
    }
  }

  /**
   * The activity interfaces registered on each of this process's workers, by task queue, in the
   * order they were declared; empty before the workers are registered, and in a process with no
   * workers.
   */
  public Map<String, List<Class<?>>> hosted() {
    return Collections.unmodifiableMap(hosted);
  }

  /**
   * Which activity interfaces the workers of these queues host: each queue the interfaces declared
   * for it, and the automation queue, when {@code runsLocalActivities}, those declared local too.
   * Every queue is a key, with an empty list when it hosts none.
   */
  public static Map<String, List<Class<?>>> activitiesByQueue(
      List<NodeActivity<?>> declared, Collection<String> queues, boolean runsLocalActivities) {
    Map<String, List<Class<?>>> byQueue = new LinkedHashMap<>();
    for (String queue : queues) {
      Set<Class<?>> interfaces = new LinkedHashSet<>();
      for (NodeActivity<?> activity : declared) {
        if (queue.equals(activity.taskQueue())
            || (activity.local() && runsLocalActivities && TaskQueues.AUTOMATION.equals(queue))) {
          interfaces.add(activity.activities());
        }
      }
      byQueue.put(queue, List.copyOf(interfaces));
    }
    return byQueue;
  }

  /**
   * The beans that implement these interfaces, each once.
   *
   * @throws IllegalStateException an interface has no bean: the worker would take tasks it cannot
   *     run
   */
  private Collection<Object> implementations(String queue, List<Class<?>> interfaces) {
    Set<Object> implementations = Collections.newSetFromMap(new IdentityHashMap<>());
    List<String> missing = new ArrayList<>();
    for (Class<?> activities : interfaces) {
      Map<String, ?> found = beans.getBeansOfType(activities, false, true);
      if (found.isEmpty()) {
        missing.add(activities.getName());
      }
      implementations.addAll(found.values());
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "this process polls task queue "
              + queue
              + (TaskQueues.AUTOMATION.equals(queue) && runsLocalActivities
                  ? " and runs local activities (crm.runs.local-activities)"
                  : "")
              + ", but has no bean implementing "
              + String.join(", ", missing)
              + ", which the workflows or a node type call there: add the bean (a node type's"
              + " jar carries its activities' implementation), or do not poll the queue here");
    }
    return implementations;
  }
}
