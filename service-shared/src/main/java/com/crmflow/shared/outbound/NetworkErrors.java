package com.crmflow.shared.outbound;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import javax.net.ssl.SSLException;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.NoHttpResponseException;

/**
 * A failed call said the way a user reads it in a node's error or a delivery's {@code last_error}
 * ("could not resolve host vm."), never as a Java class name.
 */
public final class NetworkErrors {

  private NetworkErrors() {}

  /** What went wrong calling {@code host}: the most telling failure in the chain of causes. */
  public static String describe(IOException failure, String host) {
    if (find(failure, UnknownHostException.class) != null) {
      return "could not resolve host " + host;
    }
    HttpTimeoutException late = find(failure, HttpTimeoutException.class);
    if (late != null) {
      return host + ": " + late.getMessage();
    }
    if (find(failure, InterruptedIOException.class) != null) {
      return host + " did not answer in time";
    }
    if (find(failure, ConnectException.class) != null) {
      return "could not connect to " + host + ": the connection was refused";
    }
    if (find(failure, NoRouteToHostException.class) != null) {
      return "could not connect to " + host + ": no route to the host";
    }
    SSLException tls = find(failure, SSLException.class);
    if (tls != null) {
      return "the TLS connection to " + host + " failed" + reason(tls);
    }
    if (find(failure, NoHttpResponseException.class) != null
        || find(failure, ConnectionClosedException.class) != null) {
      return host + " closed the connection without an answer";
    }
    SocketException broken = find(failure, SocketException.class);
    if (broken != null) {
      return "the connection to " + host + " broke" + reason(broken);
    }
    return "the call to " + host + " failed" + reason(failure);
  }

  /** The first failure of this type among the failure and its causes, or null. */
  private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
    for (Throwable each = failure; each != null; each = each.getCause()) {
      if (type.isInstance(each)) {
        return type.cast(each);
      }
      if (each.getCause() == each) {
        break;
      }
    }
    return null;
  }

  private static String reason(IOException e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? "" : ": " + message.strip();
  }
}
