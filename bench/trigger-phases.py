#!/usr/bin/env python3
"""Where flow A's triggered runs spent their time, from the run rows and Temporal's histories.

  bench/trigger-phases.py LABEL TEMPORAL_CLI ADDRESS NAMESPACE < runs

Each line of stdin is one run of flow A (webhook -> http_request): its workflow id and the time
its row was stored (epoch ms). Each run's history is read with `temporal workflow show`, and the
run's time is split at four points: the trigger call sent (t0, from the trigger's payload), the run
stored (the trigger's admission and the row's insert), its workflow started in Temporal (the start
pool and the start call), the first workflow task started (Temporal's dispatch; 0 with eager start)
and the http_request's call scheduled in it (the worker running the canvas up to the call: a local
activity's first scheduling, before it waits for a slot, or an activity's ActivityTaskScheduled).
A run whose history cannot be read is left out and counted as unread. It prints one
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


def call_scheduled(events):
    """When the http_request's call was scheduled: a local activity's marker holds when it was
    first scheduled in the workflow task; an activity has its ActivityTaskScheduled event."""
    for event in events:
        marker = event.get("markerRecordedEventAttributes")
        if (marker and "meta" in marker["details"]
                and decoded(marker["details"]["type"]["payloads"][0]) == "http_request"):
            return decoded(marker["details"]["meta"]["payloads"][0])["firstSkd"]
    return next(epoch_ms(e["eventTime"]) for e in events
                if e["eventType"] == "EVENT_TYPE_ACTIVITY_TASK_SCHEDULED"
                and e["activityTaskScheduledEventAttributes"]["activityType"]["name"]
                == "http_request")


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
    call = call_scheduled(events)
    return {
        "admitted_and_stored": stored_ms - t0,
        "to_workflow_start": workflow_started - stored_ms,
        "to_first_task": task_started - workflow_started,
        "to_call_scheduled": call - task_started,
        "total_to_call_scheduled": call - t0,
    }


def main():
    label, cli, address, namespace = sys.argv[1:5]
    runs = [line.split() for line in sys.stdin if line.strip()]
    measured = []
    for workflow_id, stored_ms in runs:
        try:
            measured.append(phases(cli, address, namespace, workflow_id, float(stored_ms)))
        except (subprocess.CalledProcessError, StopIteration, KeyError, ValueError) as unread:
            print(f"trigger-phases: {workflow_id} left out: {unread!r}", file=sys.stderr)
    unread = len(runs) - len(measured)
    if not measured:
        print(f"RESULT trigger_phases label={label} runs=0 unread={unread}")
        return
    medians = " ".join(f"{name}_ms={statistics.median(m[name] for m in measured):.0f}"
                       for name in measured[0])
    print(f"RESULT trigger_phases label={label} runs={len(measured)} unread={unread} (medians)"
          f" {medians}")


if __name__ == "__main__":
    main()
