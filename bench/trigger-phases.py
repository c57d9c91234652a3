#!/usr/bin/env python3
"""Where flow A's triggered runs spent their time, from the run rows and Temporal's histories.

  bench/trigger-phases.py LABEL TEMPORAL_CLI ADDRESS NAMESPACE < runs

Each line of stdin is one run of flow A (webhook -> http_request): its workflow id and the time
its row was stored (epoch ms). Each run's history is read with `temporal workflow show`, and the
run's time is split at four points: the trigger call sent (t0, from the trigger's payload), the run
stored (the trigger's admission and the row's insert), its workflow started in Temporal (the start
pool and the start call), the first workflow task started (Temporal's dispatch; 0 with eager start)
and the http_request's call begun (the worker running the canvas up to the call; an activity's
dispatch too where the call is not a local activity). It prints one
RESULT line with the median of each part, in ms, and the median of the sum.
"""
import base64
import json
import statistics
import subprocess
import sys
from datetime import datetime


def epoch_ms(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000


def decoded(payload):
    return json.loads(base64.b64decode(payload["data"]).decode())


def call_begun(events):
    """When the http_request's call began: a local activity's marker holds when it was first
    scheduled (in the workflow task, where it runs at once); an activity begins when a worker
    takes it."""
    for event in events:
        marker = event.get("markerRecordedEventAttributes")
        if (marker and "meta" in marker["details"]
                and decoded(marker["details"]["type"]["payloads"][0]) == "http_request"):
            return decoded(marker["details"]["meta"]["payloads"][0])["firstSkd"]
    scheduled = next(e["eventId"] for e in events
                     if e["eventType"] == "EVENT_TYPE_ACTIVITY_TASK_SCHEDULED"
                     and e["activityTaskScheduledEventAttributes"]["activityType"]["name"]
                     == "http_request")
    return next(epoch_ms(e["eventTime"]) for e in events
                if e["eventType"] == "EVENT_TYPE_ACTIVITY_TASK_STARTED"
                and e["activityTaskStartedEventAttributes"]["scheduledEventId"] == scheduled)


def phases(cli, address, namespace, workflow_id, stored_ms):
    shown = subprocess.run(
        [cli, "workflow", "show", "--address", address, "--namespace", namespace,
         "-w", workflow_id, "-o", "json"],
        capture_output=True, text=True, check=True)
    events = json.loads(shown.stdout)["events"]
    started = events[0]
    run_input = decoded(started["workflowExecutionStartedEventAttributes"]["input"]["payloads"][0])
    t0 = int(run_input["triggerPayload"]["t0"])
    workflow_started = epoch_ms(started["eventTime"])
    task_started = next(epoch_ms(e["eventTime"]) for e in events
                        if e["eventType"] == "EVENT_TYPE_WORKFLOW_TASK_STARTED")
    call_scheduled = call_begun(events)
    return {
        "admitted_and_stored": stored_ms - t0,
        "to_workflow_start": workflow_started - stored_ms,
        "to_first_task": task_started - workflow_started,
        "to_call": call_scheduled - task_started,
        "total_to_call": call_scheduled - t0,
    }


def main():
    label, cli, address, namespace = sys.argv[1:5]
    runs = [line.split() for line in sys.stdin if line.strip()]
    measured = [phases(cli, address, namespace, wf, float(ms)) for wf, ms in runs]
    if not measured:
        print(f"RESULT trigger_phases label={label} runs=0")
        return
    medians = " ".join(f"{name}_ms={statistics.median(m[name] for m in measured):.0f}"
                       for name in measured[0])
    print(f"RESULT trigger_phases label={label} runs={len(measured)} (medians) {medians}")


if __name__ == "__main__":
    main()
