package com.crmflow.api.outboundemail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An SMTP server on loopback that answers the way a test needs and GreenMail will not: refusing
 * every recipient, or taking a whole message and then never answering. It counts the messages whose
 * DATA it received in full.
 */
final class ScriptedSmtpServer implements AutoCloseable {

  enum Behaviour {
    ACCEPT,
    REFUSE_RECIPIENTS,
    SILENT_AFTER_DATA
  }

  private volatile Behaviour behaviour;
  private final ServerSocket socket;
  private final ExecutorService conversations = Executors.newCachedThreadPool();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger messagesReceived = new AtomicInteger();

  /** Listens on a free loopback port, see {@link #port()}. */
  ScriptedSmtpServer(Behaviour behaviour) throws IOException {
    this.behaviour = behaviour;
    socket = new ServerSocket();
    socket.bind(new InetSocketAddress("127.0.0.1", 0));
    conversations.execute(this::acceptConnections);
  }

  /** Answers the next conversations this way. */
  void answer(Behaviour behaviour) {
    this.behaviour = behaviour;
  }

  int port() {
    return socket.getLocalPort();
  }

  int connections() {
    return connections.get();
  }

  int messagesReceived() {
    return messagesReceived.get();
  }

  private void acceptConnections() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        connections.incrementAndGet();
        conversations.execute(() -> converse(client));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void converse(Socket client) {
    try (client;
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
        Writer out = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.US_ASCII)) {
      reply(out, "220 scripted ESMTP");
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String verb = line.length() < 4 ? line : line.substring(0, 4).toUpperCase(Locale.ROOT);
        switch (verb) {
          case "EHLO", "HELO", "MAIL", "RSET", "NOOP" -> reply(out, "250 ok");
          case "RCPT" ->
              reply(
                  out,
                  behaviour == Behaviour.REFUSE_RECIPIENTS
                      ? "550 5.1.1 no such mailbox"
                      : "250 ok");
          case "DATA" -> {
            reply(out, "354 end with <CRLF>.<CRLF>");
            for (String data = in.readLine();
                data != null && !data.equals(".");
                data = in.readLine()) {
              // the message itself: only its arrival is counted
            }
            messagesReceived.incrementAndGet();
            if (behaviour == Behaviour.SILENT_AFTER_DATA) {
              // took the message, never says so: waits until the client gives up
              while (in.read() >= 0) {}
              return;
            }
            reply(out, "250 2.0.0 queued");
          }
          case "QUIT" -> {
            reply(out, "221 bye");
            return;
          }
          default -> reply(out, "502 5.5.1 not implemented");
        }
      }
    } catch (IOException clientLeft) {
      // the client closed or timed out: nothing more to say
    }
  }

  private static void reply(Writer out, String line) throws IOException {
    out.write(line + "\r\n");
    out.flush();
  }

  @Override
  public void close() throws IOException {
    socket.close();
    conversations.shutdownNow();
  }
}
