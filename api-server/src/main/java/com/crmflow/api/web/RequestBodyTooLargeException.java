package com.crmflow.api.web;

import java.io.IOException;

/** Thrown while reading a request body that passes the size limit without a Content-Length. */
public class RequestBodyTooLargeException extends IOException {

  private final long maxBytes;

  public RequestBodyTooLargeException(long maxBytes) {
    super("request body exceeds " + maxBytes + " bytes");
    this.maxBytes = maxBytes;
  }

  public long maxBytes() {
    return maxBytes;
  }
}
