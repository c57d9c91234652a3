/**
 * The stand-alone workflow-worker: the interpreter workflows and the integration activities, with
 * no HTTP API and no database. api-server hosts the same in its own process on the embedded
 * defaults, through {@link com.crmflow.worker.InProcessWorker}, the one class of this module it
 * names.
 */
package com.crmflow.worker;
