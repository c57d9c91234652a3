/**
 * What happens to an automation run once it is stored: its workflow started (and started again by
 * the reconciler), its node log recorded, its end mirrored, its cancel and its retry.
 */
package com.crmflow.api.run;
