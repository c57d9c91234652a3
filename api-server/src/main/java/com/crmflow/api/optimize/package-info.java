/**
 * POST /optimize: suggestions for a canvas (a missing condition, a sequence that opens with a
 * delay).
 */
package com.crmflow.api.optimize;
