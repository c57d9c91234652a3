/** Trace context (W3C, OpenTelemetry) where the worker's own code reads or writes it. */
package com.crmflow.worker.tracing;
