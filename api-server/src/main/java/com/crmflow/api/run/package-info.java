/**
 * What happens to an automation run once it is stored: its workflow started ({@link
 * com.crmflow.api.run.RunStarter}, with its input from {@link com.crmflow.api.run.RunInputs}, and
 * started again by the reconciler), its node log recorded, its end mirrored, its cancel ({@link
 * com.crmflow.api.run.RunCancels}) and its retry ({@code RetryChains}).
 */
package com.crmflow.api.run;
