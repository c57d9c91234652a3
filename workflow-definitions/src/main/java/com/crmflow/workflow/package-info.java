/**
 * The Temporal side shared by api-server and the worker. This package holds the names every layer
 * uses (the task queues, the search attributes); the engine's layers are its subpackages, each
 * depending only on those below it: canvas (the model) → contract (the run's input, result and node
 * log) → history (sizing) → node (the executors) → rules (the canvas rules) → run (the
 * interpreter), with action, event and template beside the bottom, and enrollment, schedule,
 * webhook and registration on top. {@code EngineLayersTest} checks it.
 */
package com.crmflow.workflow;
