package com.crmflow.api.runmove;

import com.crmflow.api.flow.CanvasService;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunMove;
import com.crmflow.workflow.contract.RunMoveResult;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Service;

/**
 * Carries out the moves {@link WaitingRunMoves} stores, never in the request's thread: every {@code
 * crm.runs.move.pause} an api-server leases the move that waited longest for its turn and asks its
 * next page of {@code crm.runs.move.page-size} waiting runs (in id order, {@code parallel} at once)
 * to move, through the Temporal update {@value AutomationRunWorkflow#MOVE}; then it records the
 * page (its cursor, the runs it could not move by reason) with the job. Moves of several tenants
 * take turns a page each, and no move takes more than a page per pause from the runs' own work.
 *
 * <p>Durable and safe to repeat: a job whose api-server died is taken on by any api-server once its
 * lease runs out, from its last page. A run asked again gets the same update id (Temporal answers
 * it once), and a run that runs the target already answers that it does, changing nothing; a run
 * moved leaves the page's versions, and its record names the move, which counts it.
 */
@Service
public class RunMoveJobs implements SchedulingConfigurer, DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(RunMoveJobs.class);
  private static final Duration LEASE = Duration.ofSeconds(30);

  static final String ENDED = "the run ended";
  static final String NOT_STARTED = "the run's workflow has not started yet";

  private final RunMoveRepository jobs;
  private final WorkflowClient temporal;
  private final CanvasService canvases;
  private final CrmProperties.Runs.Move settings;
  private final ExecutorService asking;

  /** This process, as the holder of the jobs it leases. */
  private final String holder = "api-" + UUID.randomUUID();

  RunMoveJobs(
      RunMoveRepository jobs,
      WorkflowClient temporal,
      CanvasService canvases,
      CrmProperties properties) {
    this.jobs = jobs;
    this.temporal = temporal;
    this.canvases = canvases;
    this.settings = properties.runs().move();
    this.asking =
        Executors.newFixedThreadPool(
            settings.parallel(),
            task -> {
              Thread thread = new Thread(task, "run-move");
              thread.setDaemon(true);
              return thread;
            });
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(
        new FixedDelayTask(this::nextPage, settings.pause(), Duration.ofSeconds(1)));
  }

  @Override
  public void destroy() {
    asking.shutdownNow();
  }

  /** Moves the next page of runs of the move whose turn it is; whether there was one. */
  boolean nextPage() {
    Optional<RunMoveJob> leased;
    try {
      leased = jobs.lease(holder, LEASE);
    } catch (RuntimeException unreachable) {
      log.warn("Could not look for moves of waiting runs: {}", unreachable.toString());
      return false;
    }
    if (leased.isEmpty()) {
      return false;
    }
    RunMoveJob job = leased.get();
    try {
      List<RunMoveRepository.RunToMove> page = jobs.page(job, settings.pageSize());
      if (page.isEmpty()) {
        jobs.complete(job.id());
        return true;
      }
      Canvas target =
          canvases.version(job.tenantId(), job.sequenceId(), job.toVersion()).toCanvas();
      RunMove move =
          new RunMove(
              job.id().toString(),
              job.toVersion(),
              target,
              job.mapping(),
              job.recomputeDelays(),
              job.apiKeyId() == null ? null : job.apiKeyId().toString());
      List<CompletableFuture<String>> asked = new ArrayList<>();
      for (RunMoveRepository.RunToMove run : page) {
        asked.add(CompletableFuture.supplyAsync(() -> ask(job, run, move), asking));
      }
      Map<String, Long> skipped = new LinkedHashMap<>();
      for (CompletableFuture<String> one : asked) {
        String reason = one.join();
        if (reason != null) {
          skipped.merge(reason, 1L, Long::sum);
        }
      }
      jobs.pageDone(job, holder, page.get(page.size() - 1).id(), skipped);
      return true;
    } catch (RuntimeException failed) {
      // the lease runs out and the page is asked again, by this process or another
      log.warn("A page of run move {} failed: {}", job.id(), failed.toString());
      return false;
    }
  }

  /**
   * Asks the run to move; why it did not, or null when it moved (or runs the target already). A
   * failure to reach Temporal fails the page, which is asked again.
   */
  private String ask(RunMoveJob job, RunMoveRepository.RunToMove run, RunMove move) {
    if (!run.workflowStarted()) {
      return NOT_STARTED;
    }
    try {
      RunMoveResult result =
          temporal
              .newUntypedWorkflowStub(run.workflowId())
              .startUpdate(
                  UpdateOptions.newBuilder(RunMoveResult.class)
                      .setUpdateName(AutomationRunWorkflow.MOVE)
                      .setUpdateId(job.id() + "/" + run.id())
                      .setWaitForStage(WorkflowUpdateStage.COMPLETED)
                      .build(),
                  move)
              .getResult();
      return RunMoveResult.NOT_MOVED.equals(result.outcome()) ? result.reason() : null;
    } catch (WorkflowUpdateException refused) {
      return refused.getCause() instanceof ApplicationFailure failure
          ? failure.getOriginalMessage()
          : ENDED;
    } catch (WorkflowNotFoundException closed) {
      return ENDED;
    }
  }
}
