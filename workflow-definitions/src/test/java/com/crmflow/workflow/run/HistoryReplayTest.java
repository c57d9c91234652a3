package com.crmflow.workflow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.enrollment.EnrollmentWorkflowImpl;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflowImpl;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflowImpl;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.GlobalDataConverter;
import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Replays recorded histories against today's interpreter: a change that would break runs in flight
 * (non-determinism) fails here. Histories come from {@link HistoryRecorder} (runs, with remote and
 * with local activities: every node type the engine ran then, timers, parallel branches with a
 * join, a skipped branch, activity retries; a run resumed mid-graph; a run whose failure cut the
 * delay beside it short; runs near Temporal's size limits, one per version that keeps them under; a
 * distributed run whose entries carry their input), {@link FlowHistoryRecorder} (an enrollment, a
 * schedule across a DST change, a webhook delivery with retries, a run through email, chat_message,
 * crm_update and create_record), {@link TourHistoryRecorder} (the README's tour on the embedded
 * defaults, with its crm calls through the crm queue and as local activities), {@link
 * ContactReadBesideTest} (a chat beside an email that reads a changed contact), {@link
 * UrlHistoryRecorder} (trigger values in an http_request's url, as text and encoded) and {@link
 * JourneyHistoryRecorder} (a wait_until met by a signal, a failed run as it ended before failed
 * runs failed their workflow and one that fails it, a delay that ends in a send window, a split, a
 * run held by its flow's pause and released, a run ended by it while it waited, runs moved to
 * another version of their flow while they waited and while they held).
 */
class HistoryReplayTest {

  @Test
  void everyRecordedHistoryReplays() throws IOException, URISyntaxException, Exception {
    Path dir = Path.of(HistoryReplayTest.class.getResource("/histories").toURI());
    List<Path> histories;
    try (Stream<Path> files = Files.list(dir)) {
      histories =
          files
              .filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".json.gz"))
              .sorted()
              .toList();
    }
    assertThat(histories)
        .extracting(p -> p.getFileName().toString())
        .contains(
            "every-built-node-type.json",
            "three-day-wait.json",
            "retried-activity.json",
            "batched-every-built-node-type.json",
            "batched-three-day-wait.json",
            "batched-retried-activity.json",
            "local-every-built-node-type.json",
            "local-three-day-wait.json",
            "local-retried-activity.json",
            "resumed-every-built-node-type.json",
            "enrollment-three-steps.json",
            "schedule-berlin-spring-forward.json",
            "delivery-two-failures-then-success.json",
            "side-effects-email-chat-crm.json",
            "side-effects-email-unknown-outcome.json",
            "local-failure-cuts-delay.json",
            "local-failure-settles-branches.json",
            "local-retry-of-unrun-nodes.json",
            "local-branch-ends-beside-delay.json",
            "large-local-answers-per-task.json.gz",
            "large-remote-inputs-per-task.json.gz",
            "large-remote-sized-recording.json.gz",
            "large-remote-activity-inputs-fit.json.gz",
            "large-remote-recordings-per-task.json.gz",
            "remote-node-input.json",
            "local-tour-crm-queue.json",
            "local-tour-crm-calls-local.json",
            "remote-contact-read-beside.json",
            "remote-contact-read-beside-as-ran.json",
            "local-url-values-as-text.json",
            "local-url-values-encoded.json",
            "remote-url-values-as-text.json",
            "remote-url-values-encoded.json",
            "local-wait-until-met.json",
            "local-failed-run-completes.json",
            "local-failed-run-fails.json",
            "local-delay-in-window.json",
            "local-split.json",
            "local-held-run.json",
            "local-ended-run.json",
            "local-goal-event-before-goals.json",
            "local-goal-met-in-delay.json",
            "local-goal-met-before-node.json",
            "local-moved-run.json",
            "local-held-moved-run.json",
            // recorded again once a wait's timer marks its cancellation read (WaitTimer): the
            // same commands, so both recordings replay on either code
            "local-moved-run-timer-read.json",
            "local-wait-until-met-timer-read.json",
            "local-held-moved-run-timer-read.json",
            // a wait moved twice, held while moved, and a window's moved twice: before and after
            // moved-waits-go-on
            "local-moved-twice-run.json",
            "local-held-while-waiting-moved-run.json",
            "local-window-moved-twice-run.json",
            "local-moved-twice-run-waits-go-on.json",
            "local-held-while-waiting-moved-run-waits-go-on.json",
            "local-window-moved-twice-run-waits-go-on.json",
            // a goal met while the run moved: before and after goal-ends-move
            "local-goal-during-move-run.json",
            "local-goal-during-move-run-goal-ends-move.json");
    // each took the path of its version (the marker is recorded only by a run that needs it)
    for (String version :
        List.of(
            "answers-per-task",
            "inputs-per-task",
            "sized-recording",
            "activity-inputs-fit",
            "recordings-per-task")) {
      String file = version.equals("answers-per-task") ? "large-local-" : "large-remote-";
      assertThat(markerPayloads(dir.resolve(file + version + ".json.gz")))
          .as(version)
          .contains("\"" + version + "\"");
    }
    // the failed run ended while its other branch's day-long timer was still pending
    assertThat(Files.readString(dir.resolve("local-failure-cuts-delay.json")))
        .contains("EVENT_TYPE_TIMER_STARTED", "HTTP 404 from peer")
        .doesNotContain("EVENT_TYPE_TIMER_FIRED");
    // the call in flight when the run failed finished in it; the retry called the node after it
    assertThat(markerPayloads(dir.resolve("local-failure-settles-branches.json")))
        .contains("https://example.com/slow", "the run failed before this node started")
        .doesNotContain("https://example.com/after");
    // the call's entry was written while the delay beside it waited, before the run's end
    assertThat(markerPayloads(dir.resolve("local-branch-ends-beside-delay.json")))
        .contains("flush-ended-branches", "https://example.com/tail");
    assertThat(markerPayloads(dir.resolve("local-retry-of-unrun-nodes.json")))
        .contains("https://example.com/after", "\"nodeId\":\"wait\"");
    assertThat(Files.readString(dir.resolve("side-effects-email-unknown-outcome.json")))
        .contains("EmailOutcomeUnknown", "record_email", "Version");
    assertThat(Files.readString(dir.resolve("side-effects-email-chat-crm.json")))
        .contains("email_context", "\"email\"", "chat_message", "crm_update", "create_record");
    assertThat(Files.readString(dir.resolve("batched-three-day-wait.json")))
        .contains("record_nodes", "record_run_end");
    assertThat(Files.readString(dir.resolve("local-three-day-wait.json")))
        .contains("LocalActivity")
        .doesNotContain("activityTaskScheduledEventAttributes");
    // through the crm queue the entries carry their input from the version's marker on
    assertThat(markerPayloads(dir.resolve("remote-node-input.json"))).contains("\"node-input\"");
    assertThat(activityInputs(dir.resolve("remote-node-input.json")))
        .contains(
            "\"input\":{\"config\":{\"url\":\"https://example.com/b/7\",\"method\":\"POST\"},"
                + "\"read\":{\"http_request_1.body.id\":7}}");
    // the tour's crm calls: through the crm queue without the marker, local activities with it, the
    // send an activity of the integrations queue on both paths
    assertThat(activityTypes(dir.resolve("local-tour-crm-queue.json")))
        .containsExactly("crm_update", "email_context", "email", "record_email");
    assertThat(markerPayloads(dir.resolve("local-tour-crm-queue.json")))
        .doesNotContain("crm-calls-local");
    assertThat(activityTypes(dir.resolve("local-tour-crm-calls-local.json")))
        .containsExactly("email");
    assertThat(markerPayloads(dir.resolve("local-tour-crm-calls-local.json")))
        .contains("\"crm-calls-local\"", "\"crm_update\"", "\"email_context\"", "\"record_email\"");
    // a chat beside an email that read a changed contact: without node-input-contact its entry
    // shows the contact as it stood when the entry was recorded; with it, the contact it ran with
    assertThat(markerPayloads(dir.resolve("remote-contact-read-beside.json")))
        .doesNotContain("node-input-contact");
    assertThat(activityInputs(dir.resolve("remote-contact-read-beside.json")))
        .contains("\"messageTemplate\":\"For new@example.com\"");
    assertThat(markerPayloads(dir.resolve("remote-contact-read-beside-as-ran.json")))
        .contains("\"node-input-contact\"");
    assertThat(activityInputs(dir.resolve("remote-contact-read-beside-as-ran.json")))
        .contains("\"messageTemplate\":\"For old@example.com\"");
    // trigger values in a url: written as text (both calls made) before url-values-encoded, encoded
    // for their parts after it (the dot segment's node failed without calling)
    assertThat(markerPayloads(dir.resolve("local-url-values-as-text.json")))
        .contains(
            "\"url\":\"https://example.com/orders/123#/status?force=true&admin=1\"",
            "\"url\":\"https://example.com/orders/../status\"")
        .doesNotContain("url-values-encoded");
    assertThat(markerPayloads(dir.resolve("local-url-values-encoded.json")))
        .contains(
            "\"url-values-encoded\"",
            "\"url\":\"https://example.com/orders/123%23/status?force=true%26admin%3D1\"")
        .doesNotContain("\"url\":\"https://example.com/orders/../status\"");
    assertThat(activityInputs(dir.resolve("remote-url-values-as-text.json")))
        .contains("\"url\":\"https://example.com/orders/../status\"");
    assertThat(markerPayloads(dir.resolve("remote-url-values-as-text.json")))
        .doesNotContain("url-values-encoded");
    assertThat(activityTypes(dir.resolve("remote-url-values-encoded.json")))
        .containsOnlyOnce("http_request");
    assertThat(markerPayloads(dir.resolve("remote-url-values-encoded.json")))
        .contains("\"url-values-encoded\"");
    // a wait_until met by a signalled reply: its deadline's timer cancelled
    assertThat(Files.readString(dir.resolve("local-wait-until-met.json")))
        .contains(
            "EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED", "record_event", "EVENT_TYPE_TIMER_CANCELED");
    assertThat(markerPayloads(dir.resolve("local-wait-until-met.json"))).contains("watch_record");
    // a failed run completed its workflow before failed-run-fails-workflow, and fails it after
    assertThat(Files.readString(dir.resolve("local-failed-run-completes.json")))
        .contains("EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED")
        .doesNotContain("failed-run-fails-workflow");
    assertThat(Files.readString(dir.resolve("local-failed-run-fails.json")))
        .contains(
            "EVENT_TYPE_WORKFLOW_EXECUTION_FAILED",
            "CrmRunFailed",
            "node bad (http_request) failed: HTTP 404 from peer")
        .doesNotContain("EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED");
    assertThat(markerPayloads(dir.resolve("local-failed-run-fails.json")))
        .contains("\"failed-run-fails-workflow\"");
    // the window's zone looked up as the delay ran, its moment logged before its timer
    assertThat(markerPayloads(dir.resolve("local-delay-in-window.json")))
        .contains("window_zone", "Asia/Tokyo");
    // held by its flow's pause: the delay's timer fired while held, the call made once released
    assertThat(Files.readString(dir.resolve("local-held-run.json")))
        .contains("EVENT_TYPE_TIMER_FIRED", "\"signalName\": \"run_control\"");
    assertThat(markerPayloads(dir.resolve("local-held-run.json")))
        .contains("\"run-control\"", "local-held-run:call");
    // asked to end while it waited: its timer never fired, no call made
    assertThat(Files.readString(dir.resolve("local-ended-run.json")))
        .contains("\"signalName\": \"run_control\"")
        .doesNotContain("EVENT_TYPE_TIMER_FIRED");
    assertThat(markerPayloads(dir.resolve("local-ended-run.json")))
        .contains("\"run-control\"")
        .doesNotContain("http_request");
    // routed its goal's event before goals existed: the run waited on and called
    assertThat(Files.readString(dir.resolve("local-goal-event-before-goals.json")))
        .contains("\"signalName\": \"record_event\"", "EVENT_TYPE_TIMER_FIRED");
    assertThat(markerPayloads(dir.resolve("local-goal-event-before-goals.json")))
        .doesNotContain("\"goal\"");
    // the goal's event cut the delay short: no timer fired, no call, the run ended at the goal
    assertThat(Files.readString(dir.resolve("local-goal-met-in-delay.json")))
        .contains("\"signalName\": \"record_event\"")
        .doesNotContain("EVENT_TYPE_TIMER_FIRED");
    assertThat(markerPayloads(dir.resolve("local-goal-met-in-delay.json")))
        .contains("\"goal\"", "goal_holds")
        .doesNotContain("http_request");
    // the contact met the goal before the delay: no timer started
    assertThat(Files.readString(dir.resolve("local-goal-met-before-node.json")))
        .doesNotContain("EVENT_TYPE_TIMER_STARTED");
    assertThat(markerPayloads(dir.resolve("local-goal-met-before-node.json")))
        .contains("\"goal\"", "goal_holds");
    // moved a day into its wait: the old timer cancelled, the mapped delay's timer for the rest of
    // the same deadline, the move recorded, version 2's URL called once
    assertThat(Files.readString(dir.resolve("local-moved-run.json")))
        .contains("EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED", "EVENT_TYPE_TIMER_CANCELED");
    assertThat(markerPayloads(dir.resolve("local-moved-run.json")))
        .contains("\"run-move\"", "record_run_moved", "https://example.com/fixed/7")
        .doesNotContain("https://example.com/7");
    // moved while held before its call: the delay's timer fired while held, the move recorded,
    // version 2's URL called once released
    assertThat(Files.readString(dir.resolve("local-held-moved-run.json")))
        .contains(
            "EVENT_TYPE_TIMER_FIRED",
            "\"signalName\": \"run_control\"",
            "EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED");
    assertThat(markerPayloads(dir.resolve("local-held-moved-run.json")))
        .contains(
            "\"run-control\"",
            "\"run-move\"",
            "\"held-move\"",
            "record_run_moved",
            "https://example.com/fixed/7")
        .doesNotContain("https://example.com/7");
    // before moved-waits-go-on: no marker, and the paths the change leaves; after: its marker
    for (String moved :
        List.of(
            "local-moved-twice-run",
            "local-held-while-waiting-moved-run",
            "local-window-moved-twice-run")) {
      assertThat(markerPayloads(dir.resolve(moved + ".json")))
          .as(moved)
          .doesNotContain("\"moved-waits-go-on\"");
      assertThat(markerPayloads(dir.resolve(moved + "-waits-go-on.json")))
          .as(moved + " with the change")
          .contains("\"moved-waits-go-on\"");
    }
    // the held run moved while it waited: before, its moved delay held until the release; after,
    // it waits on from the move (its timer starts before the release's signal)
    assertThat(eventTypesAfterTheMove(dir.resolve("local-held-while-waiting-moved-run.json")))
        .containsSubsequence("EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED", "EVENT_TYPE_TIMER_STARTED");
    assertThat(
            eventTypesAfterTheMove(
                dir.resolve("local-held-while-waiting-moved-run-waits-go-on.json")))
        .containsSubsequence("EVENT_TYPE_TIMER_STARTED", "EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED")
        .containsOnlyOnce("EVENT_TYPE_TIMER_STARTED");
    assertThat(markerPayloads(dir.resolve("local-goal-during-move-run.json")))
        .doesNotContain("\"goal-ends-move\"");
    assertThat(markerPayloads(dir.resolve("local-goal-during-move-run-goal-ends-move.json")))
        .contains("\"goal-ends-move\"");
    for (Path history : histories) {
      WorkflowReplayer.replayWorkflowExecution(read(history), implementation(history));
    }
  }

  /**
   * A run's input is the JSON the recorded histories start with: the same fields in the same order,
   * nulls written, the same values (the maps' own order aside: {@code Map.of} has none). A field
   * renamed, moved or left out when null would change the payloads of runs in flight.
   */
  @Test
  void aRunInputIsTheJsonTheRecordedHistoriesStartWith() throws Exception {
    Path dir = Path.of(HistoryReplayTest.class.getResource("/histories").toURI());
    RunInput remote =
        RunInputBuilder.run("remote-node-input", Canvases.callWaitCall())
            .payload(Map.of("plan", "pro"))
            .inlineChains(true)
            .build();
    assertSameJson(json(remote), startInput(dir.resolve("remote-node-input.json")));
    // recorded before crm-calls-local, with the changes its starter listed then
    RunInput tour =
        TourHistoryRecorder.input(
            "local-tour-crm-queue",
            List.of(
                "batched-recording",
                "side-effect-nodes",
                "failure-settles-branches",
                "flush-ended-branches",
                "sized-recording",
                "answers-per-task",
                "activity-inputs-fit",
                "recordings-per-task",
                "inputs-per-task",
                "status-search-attribute",
                "failure-cuts-delays",
                "book-unknown-email",
                "template-reads-contact-and-trigger"));
    assertSameJson(json(tour), startInput(dir.resolve("local-tour-crm-queue.json")));
  }

  private static void assertSameJson(String actual, String recorded) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    JsonNode actualTree = mapper.readTree(actual);
    JsonNode recordedTree = mapper.readTree(recorded);
    assertThat(actualTree).isEqualTo(recordedTree);
    List<String> recordedFields = new ArrayList<>();
    recordedTree.fieldNames().forEachRemaining(recordedFields::add);
    List<String> actualFields = new ArrayList<>();
    actualTree.fieldNames().forEachRemaining(actualFields::add);
    assertThat(actualFields).hasSize(18).containsExactlyElementsOf(recordedFields);
  }

  private static String json(Object value) {
    return GlobalDataConverter.get().toPayload(value).orElseThrow().getData().toStringUtf8();
  }

  /** The input of a history's start, as JSON. */
  private static String startInput(Path history) throws IOException {
    return WorkflowExecutionHistory.fromJson(read(history))
        .getEvents()
        .get(0)
        .getWorkflowExecutionStartedEventAttributes()
        .getInput()
        .getPayloads(0)
        .getData()
        .toStringUtf8();
  }

  /** The payloads of a history's markers (local activities, versions) as text. */
  private static String markerPayloads(Path history) throws IOException {
    return HistoryMarkers.text(WorkflowExecutionHistory.fromJson(read(history)));
  }

  /** The types of a history's timer and signal events after its first update, in order. */
  private static List<String> eventTypesAfterTheMove(Path history) throws IOException {
    List<HistoryEvent> events = WorkflowExecutionHistory.fromJson(read(history)).getEvents();
    int move = 0;
    while (!events.get(move).hasWorkflowExecutionUpdateCompletedEventAttributes()) {
      move++;
    }
    return events.subList(move, events.size()).stream()
        .map(e -> e.getEventType().name())
        .filter(type -> type.contains("TIMER_STARTED") || type.endsWith("EXECUTION_SIGNALED"))
        .toList();
  }

  /** The types of a history's activities (not local ones), in the order they were scheduled. */
  private static List<String> activityTypes(Path history) throws IOException {
    return WorkflowExecutionHistory.fromJson(read(history)).getEvents().stream()
        .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
        .map(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName())
        .toList();
  }

  /** The inputs of a history's activities as text. */
  private static String activityInputs(Path history) throws IOException {
    StringBuilder text = new StringBuilder();
    for (HistoryEvent event : WorkflowExecutionHistory.fromJson(read(history)).getEvents()) {
      event
          .getActivityTaskScheduledEventAttributes()
          .getInput()
          .getPayloadsList()
          .forEach(payload -> text.append(payload.getData().toStringUtf8()));
    }
    return text.toString();
  }

  /** A recorded history's JSON; the {@code large-} ones are gzipped. */
  private static String read(Path history) throws IOException {
    if (!history.toString().endsWith(".gz")) {
      return Files.readString(history);
    }
    try (InputStream in = new GZIPInputStream(Files.newInputStream(history))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Which workflow a recorded history belongs to, by its file name (see the recorders). */
  private static Class<?> implementation(Path history) {
    String name = history.getFileName().toString();
    if (name.startsWith("enrollment-")) {
      return EnrollmentWorkflowImpl.class;
    }
    if (name.startsWith("schedule-")) {
      return ScheduleTriggerWorkflowImpl.class;
    }
    if (name.startsWith("delivery-")) {
      return WebhookDeliveryWorkflowImpl.class;
    }
    return AutomationRunWorkflowImpl.class;
  }
}
