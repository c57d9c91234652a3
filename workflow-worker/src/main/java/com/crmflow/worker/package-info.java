/**
 * The stand-alone workflow-worker: the interpreter workflows and the integration activities, with
 * no HTTP API and no database.
 */
package com.crmflow.worker;
