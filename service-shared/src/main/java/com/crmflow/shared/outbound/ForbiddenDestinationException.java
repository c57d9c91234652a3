package com.crmflow.shared.outbound;

import java.net.UnknownHostException;

/**
 * A connection refused before it was opened: the host resolved to an address that {@link
 * DestinationPolicy} does not allow. An UnknownHostException because that is what a resolver may
 * throw; callers tell it apart by type.
 */
public class ForbiddenDestinationException extends UnknownHostException {

  public ForbiddenDestinationException(String message) {
    super(message);
  }
}
