package com.crmflow.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback port where nothing listens, held for a test's outage: a socket bound to it that never
 * listens makes every connection to it refused, and keeps the port from being handed to another
 * socket (an outgoing connection's ephemeral port, say) until {@link #close()} frees it.
 */
public final class RefusedPort implements AutoCloseable {

  private final Socket holder = new Socket();

  /** Any free port. */
  public RefusedPort() {
    this(0);
  }

  /** This port, just given up by a server whose outage the test simulates. */
  public RefusedPort(int port) {
    try {
      holder.setReuseAddress(true); // the server's closed connections may linger in TIME_WAIT
      holder.bind(new InetSocketAddress("127.0.0.1", port));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public int port() {
    return holder.getLocalPort();
  }

  /** Frees the port, for a server to listen on it right after. */
  @Override
  public void close() {
    try {
      holder.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
