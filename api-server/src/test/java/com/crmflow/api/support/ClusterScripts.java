package com.crmflow.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The cluster shape as an operator runs it: {@code deploy/cluster/start.sh} and {@code stop.sh},
 * with its state under a test's directory and every port free (other builds run servers on this
 * machine too). The parts are found through their pid files, as stop.sh finds them; a test kills
 * only those.
 */
public final class ClusterScripts implements AutoCloseable {

  /** How long start.sh may take: the first start on a machine builds the Temporal server. */
  private static final long START_MINUTES = 45;

  private final Path dir;
  private final Map<String, String> env;
  private final List<Integer> apiPorts;
  private final int temporalPort;
  private final int postgresPort;

  private ClusterScripts(
      Path dir, Map<String, String> env, List<Integer> apiPorts, int temporalPort, int pgPort) {
    this.dir = dir;
    this.env = env;
    this.apiPorts = apiPorts;
    this.temporalPort = temporalPort;
    this.postgresPort = pgPort;
  }

  /**
   * The settings of a cluster in {@code dir} on free ports, not started yet.
   *
   * @param settings further environment for the scripts (and so for every part)
   */
  public static ClusterScripts in(Path dir, Map<String, String> settings) {
    Map<String, String> jars = new HashMap<>();
    jars.put(
        "CLUSTER_API_JAR", jar("target/app", "api-server-[0-9.]+(-SNAPSHOT)?\\.jar").toString());
    jars.put(
        "CLUSTER_WORKER_JAR", jar("../workflow-worker/target/app", ".*-exec\\.jar").toString());
    jars.putAll(settings);
    return on(dir, jars);
  }

  /**
   * The settings of a cluster in {@code dir} on free ports, for a start.sh that is to stop before
   * it needs the jars (which need not be built): jars of these names do not exist.
   */
  public static ClusterScripts unbuilt(Path dir, Map<String, String> settings) {
    Map<String, String> jars = new HashMap<>();
    jars.put("CLUSTER_API_JAR", dir.resolve("no-api-server.jar").toString());
    jars.put("CLUSTER_WORKER_JAR", dir.resolve("no-worker.jar").toString());
    jars.putAll(settings);
    return on(dir, jars);
  }

  private static ClusterScripts on(Path dir, Map<String, String> settings) {
    List<Integer> ports = freePorts(12);
    Map<String, String> env = new HashMap<>();
    env.put("CLUSTER_DIR", dir.toAbsolutePath().toString());
    env.put("CLUSTER_API_PORTS", ports.get(0) + " " + ports.get(1));
    env.put("CLUSTER_PG_PORT", String.valueOf(ports.get(2)));
    env.put("FRONTEND_GRPC_PORT", String.valueOf(ports.get(3)));
    env.put("FRONTEND_HTTP_PORT", String.valueOf(ports.get(4)));
    env.put("HISTORY_GRPC_PORT", String.valueOf(ports.get(5)));
    env.put("MATCHING_GRPC_PORT", String.valueOf(ports.get(6)));
    env.put("WORKER_GRPC_PORT", String.valueOf(ports.get(7)));
    env.put("FRONTEND_MEMBERSHIP_PORT", String.valueOf(ports.get(8)));
    env.put("HISTORY_MEMBERSHIP_PORT", String.valueOf(ports.get(9)));
    env.put("MATCHING_MEMBERSHIP_PORT", String.valueOf(ports.get(10)));
    env.put("WORKER_MEMBERSHIP_PORT", String.valueOf(ports.get(11)));
    env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.putAll(TestJvms.environment());
    env.putAll(settings);
    return new ClusterScripts(dir, env, ports.subList(0, 2), ports.get(3), ports.get(2));
  }

  /** Runs start.sh (which starts whatever part is not running) and returns what it printed. */
  public String start() {
    return run("../deploy/cluster/start.sh", START_MINUTES, Map.of(), List.of());
  }

  /** Runs stop.sh for the given parts (none: every part) and returns what it printed. */
  public String stop(String... parts) {
    return run("../deploy/cluster/stop.sh", 3, Map.of(), List.of(parts));
  }

  /**
   * Runs a script of the repository with this cluster's environment (its directory and ports) and
   * returns what it printed; fails with that output when it exits non-zero.
   *
   * @param script its path from the api-server module ("../bench/cluster-bench.sh")
   */
  public String run(
      String script, long minutes, Map<String, String> settings, List<String> arguments) {
    try {
      Path log =
          Files.createTempFile(
              Path.of("target"), "cluster-" + Path.of(script).getFileName(), ".log");
      List<String> command = new ArrayList<>(List.of("bash", script));
      command.addAll(arguments);
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().putAll(env);
      builder.environment().putAll(settings);
      Process process = builder.start();
      // its output shown as it goes: the first start on a machine builds the Temporal server
      String name = Path.of(script).getFileName().toString();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
      int shown = 0;
      while (!process.waitFor(2, TimeUnit.SECONDS)) {
        shown = show(name, log, shown);
        if (System.nanoTime() > deadline) {
          process.destroyForcibly().waitFor();
          throw new AssertionError(
              script + " did not return within " + minutes + " minutes:\n" + Files.readString(log));
        }
      }
      show(name, log, shown);
      String output = Files.readString(log, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new AssertionError(
            script + " " + arguments + " failed (exit " + process.exitValue() + "):\n" + output);
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Prints the lines of the log past the first {@code shown}; returns how many there are. */
  private static int show(String name, Path log, int shown) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    for (String line : lines.subList(Math.min(shown, lines.size()), lines.size())) {
      System.out.println("[" + name + "] " + line);
    }
    return lines.size();
  }

  /** The pid in the part's pid file ({@code api-1}, {@code worker-2}, {@code temporal}, ...). */
  public long pid(String part) {
    try {
      return Long.parseLong(Files.readString(dir.resolve(part + ".pid")).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("no pid file of " + part + " in " + dir, e);
    }
  }

  /** {@code kill -9} of the part named by its pid file; returns once it is gone. */
  public void kill(String part) {
    ProcessHandle process =
        ProcessHandle.of(pid(part)).orElseThrow(() -> new AssertionError(part + " is not running"));
    process.destroyForcibly();
    process.onExit().join();
  }

  public boolean running(String part) {
    return Files.exists(dir.resolve(part + ".pid"))
        && ProcessHandle.of(pid(part)).map(ProcessHandle::isAlive).orElse(false);
  }

  /**
   * The port a setting of the scripts names ({@code CLUSTER_PG_PORT}, {@code FRONTEND_GRPC_PORT}).
   */
  public int port(String setting) {
    return Integer.parseInt(env.get(setting));
  }

  public String apiUrl(int n) {
    return "http://127.0.0.1:" + apiPorts.get(n - 1);
  }

  public String temporalTarget() {
    return "127.0.0.1:" + temporalPort;
  }

  /** A JDBC URL of the cluster's PostgreSQL, for the database named. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + postgresPort + "/" + database;
  }

  public String postgresPassword() {
    try {
      return Files.readString(dir.resolve("postgres-password")).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Path dir() {
    return dir;
  }

  /** The end of a part's log, for a failure's message. */
  public String logOf(String part) {
    try {
      List<String> lines = Files.readAllLines(dir.resolve("logs").resolve(part + ".log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "(no log of " + part + ": " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    stop();
  }

  private static Path jar(String dir, String nameRegex) {
    try (Stream<Path> files = Files.list(Path.of(dir))) {
      return files
          .filter(p -> p.getFileName().toString().matches(nameRegex))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no jar in " + dir + ": package first"))
          .toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Ports free at once, below 32768: the Temporal server keeps its members' ports in a PostgreSQL
   * smallint, and the system's own ephemeral ports start above. Each socket is held until all are
   * chosen, so no two are the same.
   */
  private static List<Integer> freePorts(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    java.util.Random random = new java.util.Random();
    try {
      while (sockets.size() < count) {
        try {
          sockets.add(
              new ServerSocket(
                  10_000 + random.nextInt(22_000), 50, java.net.InetAddress.getLoopbackAddress()));
        } catch (IOException taken) {
          // another process's: choose again
        }
      }
      return sockets.stream().map(ServerSocket::getLocalPort).toList();
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closing a probe socket
        }
      }
    }
  }
}
