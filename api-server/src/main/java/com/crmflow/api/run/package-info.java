/**
 * How an automation run begins and what happens to it once stored: every new run begins through
 * {@link com.crmflow.api.run.RunBeginnings} (insert, size check, {@link
 * com.crmflow.api.run.RunAdmission admission}, start), its workflow started by {@link
 * com.crmflow.api.run.RunStarter} (with its input from {@link com.crmflow.api.run.RunInputs}, and
 * started again by the reconciler), its node log recorded, its end mirrored, its cancel ({@link
 * com.crmflow.api.run.RunCancels}) and its retry ({@code RetryChains}).
 */
package com.crmflow.api.run;
