/**
 * How an automation run begins and what happens to it once stored: every new run begins through
 * {@link com.crmflow.api.run.RunBeginnings} (insert, size check, {@link
 * com.crmflow.api.run.RunAdmission admission}, start), its workflow started when {@link
 * com.crmflow.api.run.RunStarter} says (at once, soon, or again by the reconciler) as {@code
 * RunWorkflowStart} builds it (with its input from {@link com.crmflow.api.run.RunInputs}), its node
 * log recorded, its end mirrored, its cancel ({@link com.crmflow.api.run.RunCancels}) and its retry
 * ({@code RetryChains}).
 */
package com.crmflow.api.run;
