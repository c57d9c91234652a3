package com.crmflow.api.embedded;

import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.InProcessGRPCServer;
import io.temporal.internal.testservice.TestServicesStarter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * The embedded Temporal test server, reachable two ways: on a TCP port, for the {@code temporal}
 * CLI and anything outside this JVM, and in-process, for this JVM's own client and workers. The
 * in-process path hands the protobuf messages over as objects: no HTTP/2 framing, no encoding and
 * decoding on each side (Netty and protobuf encoding were about a tenth of the CPU under the
 * trigger benchmark).
 *
 * <p>This is what {@code TestServer.createPortBoundServer} builds, plus the in-process server on
 * the same services (the SDK's own {@code InProcessGRPCServer}). Time skipping is locked: in the
 * running service a "wait 3 days" must really take three days.
 */
public final class EmbeddedTemporal implements AutoCloseable {

  /** Name of the singleton bean through which the context finds the in-process channel. */
  public static final String BEAN_NAME = "crmEmbeddedTemporal";

  private final TestServicesStarter services;
  private final Server portBound;
  private final InProcessGRPCServer inProcess;
  private final String timerFixProblem;
  private final String target;

  private EmbeddedTemporal(
      String target,
      TestServicesStarter services,
      Server portBound,
      InProcessGRPCServer inProcess,
      String timerFixProblem) {
    this.target = target;
    this.services = services;
    this.portBound = portBound;
    this.inProcess = inProcess;
    this.timerFixProblem = timerFixProblem;
  }

  static EmbeddedTemporal start(int port) {
    TestServicesStarter services = new TestServicesStarter(true, 0);
    String timerFixProblem = TimeSkippingLogFix.apply(services);
    ServerBuilder<?> builder =
        Grpc.newServerBuilderForPort(port, InsecureServerCredentials.create());
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    Server portBound;
    try {
      portBound = builder.build().start();
    } catch (IOException e) {
      services.close();
      throw new UncheckedIOException("could not bind the embedded Temporal to port " + port, e);
    }
    return new EmbeddedTemporal(
        "127.0.0.1:" + port,
        services,
        portBound,
        new InProcessGRPCServer(services.getServices()),
        timerFixProblem);
  }

  /** host:port of the TCP side. */
  public String target() {
    return target;
  }

  /** The channel for this JVM's WorkflowServiceStubs. */
  public ManagedChannel channel() {
    return inProcess.getChannel();
  }

  /** Null when the timer fix was applied, otherwise why not. */
  String timerFixProblem() {
    return timerFixProblem;
  }

  @Override
  public void close() throws InterruptedException {
    inProcess.shutdown();
    portBound.shutdown();
    inProcess.awaitTermination(5, TimeUnit.SECONDS);
    portBound.awaitTermination(5, TimeUnit.SECONDS);
    services.close();
  }
}
