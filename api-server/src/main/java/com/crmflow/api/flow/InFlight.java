package com.crmflow.api.flow;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What a change of a flow's status does to its runs in progress, and to how many.
 *
 * @param action continue (they go on), hold (each holds before its next node), end (each ends
 *     cancelled at its next safe point) or release (held runs go on)
 * @param runs the runs in progress it applies to, when the change was made
 */
public record InFlight(
    @Schema(allowableValues = {"continue", "hold", "end", "release"}) String action, long runs) {

  public static final String CONTINUE = "continue";
  public static final String HOLD = "hold";
  public static final String END = "end";
  public static final String RELEASE = "release";
}
