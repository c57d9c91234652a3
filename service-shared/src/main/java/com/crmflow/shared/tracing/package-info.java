/** Trace context (W3C, OpenTelemetry) where the services' own code reads it. */
package com.crmflow.shared.tracing;
