package com.crmflow.api.run;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.history.HistoryPayloads;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * How every new run begins (a trigger call, a CRM event, a schedule's fire, an enrollment, a retry,
 * a test run), always in this order: its row is inserted, its input's size is checked, the {@link
 * RunAdmission admission} is asked, and once the row is committed its workflow is started, at once
 * or soon through {@link RunStarter}'s pool. Each step that refuses throws before the commit, so a
 * refused run leaves nothing behind; what refuses and how the caller answers is the caller's {@link
 * Beginning}. A run already stored that never started is the reconciler's (through {@link
 * RunStarter#start}), not a beginning.
 */
@Component
public class RunBeginnings {

  /** When the workflow starts, once the row is committed. */
  public enum Start {
    /** In the caller's thread, before {@link #begin} returns (or the caller's commit does). */
    NOW,
    /** Handed to the start pool: the caller answers as soon as the row is committed. */
    SOON
  }

  /** What an input over what Temporal takes does. */
  public enum WhenTooLarge {
    /** Refused before the admission ({@link TooLarge}); nothing is stored. */
    REFUSE,
    /** Stored; its start measures the whole input and ends the run failed (as any start does). */
    FAIL_AT_START
  }

  /** What the admission's refusal does. */
  public enum WhenFull {
    /** The admission decides ({@link NotAdmitted}); a run it lets in is counted until it ends. */
    REFUSE,
    /**
     * The admission is not asked: the run is no caller's flood (an event, a schedule, a person).
     */
    NOT_ASKED
  }

  /**
   * A new run as its path begins it.
   *
   * @param run the row: tenant, flow, pinned version, trigger and start node, payload, idempotency
   *     key, the run it retries (or null), enrollment and cause
   * @param canvas the pinned canvas when the caller has it already, else null
   * @param loggedTrigger the trigger node's type when the row is stored with its trigger's log
   *     entry (a webhook trigger's accepted call), else null
   * @param test whether it is a test run ({@link AutomationRun#test})
   */
  public record Beginning(
      RunRepository.NewRun run,
      Canvas canvas,
      String loggedTrigger,
      boolean test,
      WhenTooLarge whenTooLarge,
      WhenFull whenFull,
      Start start) {

    /** A run that fails at its start when its input is too large and does not ask the admission. */
    public static Beginning of(RunRepository.NewRun run, Start start) {
      return new Beginning(
          run, null, null, false, WhenTooLarge.FAIL_AT_START, WhenFull.NOT_ASKED, start);
    }

    public Beginning pinnedTo(Canvas pinned) {
      return new Beginning(run, pinned, loggedTrigger, test, whenTooLarge, whenFull, start);
    }

    public Beginning withTriggerLogged(String triggerType) {
      return new Beginning(run, canvas, triggerType, test, whenTooLarge, whenFull, start);
    }

    public Beginning asTest() {
      return new Beginning(run, canvas, loggedTrigger, true, whenTooLarge, whenFull, start);
    }

    public Beginning refusedWhenTooLarge() {
      return new Beginning(run, canvas, loggedTrigger, test, WhenTooLarge.REFUSE, whenFull, start);
    }

    public Beginning refusedWhenFull() {
      return new Beginning(run, canvas, loggedTrigger, test, whenTooLarge, WhenFull.REFUSE, start);
    }
  }

  /**
   * The run's workflow input would be over what Temporal takes; nothing was stored.
   *
   * @param bytes the input's JSON measured: for a retry its whole input, else payload and canvas
   * @param canvasBytes the pinned canvas's part of it
   */
  public static final class TooLarge extends RuntimeException {
    private final int bytes;
    private final int canvasBytes;

    TooLarge(int bytes, int canvasBytes) {
      super("the run's workflow input is " + bytes + " bytes of JSON", null, false, false);
      this.bytes = bytes;
      this.canvasBytes = canvasBytes;
    }

    public int bytes() {
      return bytes;
    }

    public int canvasBytes() {
      return canvasBytes;
    }
  }

  /** The admission refused the run; nothing was stored. */
  public static final class NotAdmitted extends RuntimeException {
    private final transient RunAdmission.Decision decision;

    NotAdmitted(RunAdmission.Decision decision) {
      super("not admitted: " + decision.reason(), null, false, false);
      this.decision = decision;
    }

    public RunAdmission.Decision decision() {
      return decision;
    }
  }

  private record CanvasVersion(UUID tenantId, UUID sequenceId, int version) {}

  private static final int EMPTY_CANVAS_BYTES = HistoryPayloads.bytes(Canvas.empty());

  /** The JSON size of each canvas version in a run's workflow input (a version never changes). */
  private final Cache<CanvasVersion, Integer> canvasBytes =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofHours(1)).build();

  private final RunRepository runs;
  private final RunInputs inputs;
  private final RetryChains retries;
  private final RunAdmission admission;
  private final RunStarter starter;
  private final TransactionTemplate transaction;

  RunBeginnings(
      RunRepository runs,
      RunInputs inputs,
      RetryChains retries,
      RunAdmission admission,
      RunStarter starter,
      TransactionTemplate transaction) {
    this.runs = runs;
    this.inputs = inputs;
    this.retries = retries;
    this.admission = admission;
    this.starter = starter;
    this.transaction = transaction;
  }

  /**
   * Inserts the run, checks its input's size, asks the admission and, once the row is committed,
   * starts it. Inside the caller's transaction the row commits with the caller's work, and the
   * start waits for that commit; a rollback leaves the admission as it was.
   *
   * @return the run stored; or, for a trigger's accepted call, the earlier run of its idempotency
   *     key (see {@link #isEarlier}), with nothing stored, checked, admitted or started; empty when
   *     the insert stored nothing (a run of that id or idempotency key exists, or a trigger's
   *     target no longer matches)
   * @throws TooLarge when the beginning refuses too large an input (nothing stored)
   * @throws NotAdmitted when the beginning refuses what the admission refuses (nothing stored)
   */
  public Optional<AutomationRun> begin(Beginning beginning) {
    boolean joined = TransactionSynchronizationManager.isActualTransactionActive();
    // the start continues the trace the run was begun in
    Context trace = Context.current();
    Starting[] starting = new Starting[1];
    Optional<AutomationRun> stored =
        transaction.execute(
            tx -> {
              Optional<AutomationRun> inserted = insert(beginning);
              if (inserted.isEmpty() || isEarlier(inserted.get(), beginning)) {
                return inserted;
              }
              AutomationRun run = inserted.get();
              refuseIfTooLarge(beginning, run);
              starting[0] = new Starting(beginning, run, admit(beginning, run), trace, joined);
              TransactionSynchronizationManager.registerSynchronization(starting[0]);
              return inserted;
            });
    if (!joined && starting[0] != null) {
      // its own transaction: committed, and its connection back in the pool before any wait
      starting[0].start();
    }
    return stored;
  }

  /** Whether the insert answered with an earlier run of the beginning's idempotency key. */
  private static boolean isEarlier(AutomationRun stored, Beginning beginning) {
    return !stored.id().equals(beginning.run().id());
  }

  private Optional<AutomationRun> insert(Beginning beginning) {
    if (beginning.test()) {
      return Optional.of(runs.insertTest(beginning.run()));
    }
    if (beginning.loggedTrigger() != null) {
      return runs.insertAccepted(
          beginning.run(), beginning.loggedTrigger(), NodeLogEntry.timestamp(Instant.now()));
    }
    return runs.insert(beginning.run());
  }

  /**
   * Refuses the run when it may not be too large and its input is over what Temporal takes: for a
   * retry the whole input with what it carries on; for any other run its payload and canvas, most
   * of a fresh run's input (its start measures the whole).
   */
  private void refuseIfTooLarge(Beginning beginning, AutomationRun run) {
    if (beginning.whenTooLarge() != WhenTooLarge.REFUSE) {
      return;
    }
    Canvas canvas = beginning.canvas() != null ? beginning.canvas() : inputs.canvasOf(run);
    int canvasPart = canvasBytes(run, canvas);
    int bytes =
        run.retryOf() != null
            ? bytes(run, inputs.of(run, canvas, retries.contextOf(canvas, run), false, null))
            // the payload as sent, not as read back (jsonb orders and trims what it stores)
            : HistoryPayloads.bytes(beginning.run().triggerPayload()) + canvasPart;
    if (bytes > HistoryPayloads.LIMIT_BYTES) {
      throw new TooLarge(bytes, canvasPart);
    }
  }

  /** The admission's decision, or null when not asked. */
  private RunAdmission.Decision admit(Beginning beginning, AutomationRun run) {
    if (beginning.whenFull() != WhenFull.REFUSE) {
      return null;
    }
    RunAdmission.Decision decision = admission.decide(run.tenantId(), run.id());
    if (!decision.admitted()) {
      throw new NotAdmitted(decision);
    }
    return decision;
  }

  /**
   * How much JSON the run's workflow input is, as the data converter writes it. The canvas is
   * measured once per version (it is most of a typical input, and the same for every run of it).
   */
  int bytes(AutomationRun run, RunInput input) {
    return HistoryPayloads.bytes(input.withCanvas(Canvas.empty()))
        - EMPTY_CANVAS_BYTES
        + canvasBytes(run, input.canvas());
  }

  private int canvasBytes(AutomationRun run, Canvas canvas) {
    return canvasBytes.get(
        new CanvasVersion(run.tenantId(), run.sequenceId(), run.canvasVersion()),
        key -> HistoryPayloads.bytes(canvas));
  }

  /**
   * Sleeps until the slot of the pace the admission let the run in on (at most max-wait), with the
   * row committed and its connection back in the pool: the admission booked the slot and counts the
   * call as waiting until then, and never sleeps itself.
   */
  private static void sleepUntilSlot(Duration delay) {
    if (delay.isNegative() || delay.isZero()) {
      return;
    }
    try {
      TimeUnit.NANOSECONDS.sleep(delay.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A run stored and admitted: its start once committed, its admission given back if not. */
  private final class Starting implements TransactionSynchronization {
    private final Beginning beginning;
    private final AutomationRun run;
    private final RunAdmission.Decision admitted;
    private final Context trace;

    /** Whether the caller's commit starts it (else {@link #begin}, once its own one is done). */
    private final boolean startsOnCommit;

    Starting(
        Beginning beginning,
        AutomationRun run,
        RunAdmission.Decision admitted,
        Context trace,
        boolean startsOnCommit) {
      this.beginning = beginning;
      this.run = run;
      this.admitted = admitted;
      this.trace = trace;
      this.startsOnCommit = startsOnCommit;
    }

    void start() {
      try (Scope ignored = trace.makeCurrent()) {
        if (admitted != null) {
          sleepUntilSlot(admitted.delay());
        }
        if (beginning.start() == Start.SOON) {
          starter.startSoon(run, beginning.canvas(), beginning.loggedTrigger() != null);
        } else {
          // not started now (Temporal unreachable): the reconciler starts it, as any stored run
          starter.start(run);
        }
      }
    }

    @Override
    public void afterCommit() {
      if (startsOnCommit) {
        start();
      }
    }

    @Override
    public void afterCompletion(int status) {
      if (status != STATUS_COMMITTED && admitted != null) {
        admission.ended(run.id()); // not stored after all: no longer counted
      }
    }
  }
}
