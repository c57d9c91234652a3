package com.crmflow.api.runmove;

import com.crmflow.api.flow.CanvasService;
import com.crmflow.api.joblease.JobPolling;
import com.crmflow.api.run.RunAdmission;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunMove;
import com.crmflow.workflow.contract.RunMoveResult;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflowservice.v1.ResetStickyTaskQueueRequest;
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
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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
 * next page of {@code crm.runs.move.page-size} waiting runs (in id order, up to {@code parallel} at
 * once) to move, through the Temporal update {@value AutomationRunWorkflow#MOVE}; then it records
 * the page (its cursor, the runs it could not move by reason) with the job. Moves of several
 * tenants take turns a page each.
 *
 * <p>Paced by new runs: each update replays the run's history in a workflow task that queues with
 * new runs' tasks on the same worker and server, so each run is asked only when the {@link
 * RunAdmission} lets its update start (with what new runs leave, counted against the tenant's share
 * while it is under way). Without new runs nothing holds the move back but {@code parallel}. A page
 * that finds no room for {@link #ASKING_FOR} records the runs it asked so far, and the next page
 * (of this move, or another's whose turn it is then) goes on from there.
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

  /** How long a page goes on asking runs: well within its lease. */
  static final Duration ASKING_FOR = LEASE.dividedBy(3);

  /** How often a run waiting for room asks for it again. */
  private static final Duration ROOM_POLL = Duration.ofMillis(10);

  static final String ENDED = "the run ended";
  static final String NOT_STARTED = "the run's workflow has not started yet";

  private final RunMoveRepository jobs;
  private final WorkflowClient temporal;
  private final CanvasService canvases;
  private final RunAdmission room;
  private final CrmProperties.Runs.Move settings;
  private final ExecutorService asking;

  /** This process, as the holder of the jobs it leases. */
  private final String holder = "api-" + UUID.randomUUID();

  private final JobPolling polling = new JobPolling();

  RunMoveJobs(
      RunMoveRepository jobs,
      WorkflowClient temporal,
      CanvasService canvases,
      RunAdmission room,
      CrmProperties properties) {
    this.jobs = jobs;
    this.temporal = temporal;
    this.canvases = canvases;
    this.room = room;
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

  /** A move was stored in this process: take it at the next pause. */
  void wake() {
    polling.wake();
  }

  @Override
  public void destroy() {
    asking.shutdownNow();
  }

  /** Moves the next page of runs of the move whose turn it is; whether there was one. */
  boolean nextPage() {
    Optional<RunMoveJob> leased =
        polling.lookFor("moves of waiting runs", () -> jobs.lease(holder, LEASE));
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
      Semaphore underWay = new Semaphore(settings.parallel());
      long askUntil = System.nanoTime() + ASKING_FOR.toNanos();
      UUID lastAsked = job.afterRun();
      for (RunMoveRepository.RunToMove run : page) {
        if (!run.workflowStarted()) {
          asked.add(CompletableFuture.completedFuture(NOT_STARTED));
        } else if (awaitRoom(job, run, underWay, askUntil)) {
          asked.add(
              CompletableFuture.supplyAsync(() -> ask(job, run, move), asking)
                  .whenComplete(
                      (reason, failed) -> {
                        room.finished(run.id());
                        underWay.release();
                      }));
        } else {
          break;
        }
        lastAsked = run.id();
      }
      Map<String, Long> skipped = new LinkedHashMap<>();
      for (CompletableFuture<String> one : asked) {
        String reason = one.join();
        if (reason != null) {
          skipped.merge(reason, 1L, Long::sum);
        }
      }
      // a page that asked no run still records itself, which passes the turn to the next move
      jobs.pageDone(job, holder, lastAsked, skipped);
      return true;
    } catch (RuntimeException failed) {
      // the lease runs out and the page is asked again, by this process or another
      log.warn("A page of run move {} failed: {}", job.id(), failed.toString());
      return false;
    }
  }

  /**
   * Waits until one of the page's {@code parallel} places is free and the run's update may start
   * beside new runs; false when there was no room before {@code askUntil} (or on shutdown).
   */
  private boolean awaitRoom(
      RunMoveJob job, RunMoveRepository.RunToMove run, Semaphore underWay, long askUntil) {
    try {
      while (System.nanoTime() - askUntil < 0) {
        if (underWay.tryAcquire(ROOM_POLL.toNanos(), TimeUnit.NANOSECONDS)) {
          if (room.tryStart(job.tenantId(), run.id())) {
            return true;
          }
          underWay.release();
          TimeUnit.NANOSECONDS.sleep(ROOM_POLL.toNanos());
        }
      }
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  /**
   * Asks the run to move; why it did not, or null when it moved (or runs the target already). A
   * failure to reach Temporal fails the page, which is asked again.
   */
  private String ask(RunMoveJob job, RunMoveRepository.RunToMove run, RunMove move) {
    try {
      sendTheUpdateWithItsHistory(run.workflowId());
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

  /**
   * Has the update's workflow task go to the task queue every worker polls, with the run's whole
   * history, rather than to the sticky queue of the worker that ran the run's last task. A run
   * waits for days, so that worker has most often dropped it from its cache (600 runs by default)
   * and reads the history back itself, and the Temporal server's history read leaves out the
   * update's speculative events (temporalio/temporal#7741): the task fails and runs again, two
   * workflow tasks a move instead of one (docs/benchmarks.md, "Moving waiting runs"). Clearing
   * stickiness changes no state of the run's: the server answers it without writing anything, and
   * the run's next task after the move goes to a sticky queue again. Its failure changes nothing
   * either.
   */
  private void sendTheUpdateWithItsHistory(String workflowId) {
    try {
      temporal
          .getWorkflowServiceStubs()
          .blockingStub()
          .resetStickyTaskQueue(
              ResetStickyTaskQueueRequest.newBuilder()
                  .setNamespace(temporal.getOptions().getNamespace())
                  .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                  .build());
    } catch (StatusRuntimeException notCleared) {
      // a run that ended, or a server out of reach: the update that follows answers for either
      log.debug("Stickiness of {} not cleared: {}", workflowId, notCleared.getStatus());
    }
  }
}
