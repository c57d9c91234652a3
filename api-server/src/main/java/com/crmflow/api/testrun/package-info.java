/**
 * Test runs: a flow, or one node of it, run on the real engine against a chosen contact and a
 * sample payload, where every node that acts outside the run shows what it would do instead.
 */
package com.crmflow.api.testrun;
