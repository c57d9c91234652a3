package com.crmflow.api.bench;

import com.crmflow.api.support.TestJvms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the repository's bench/*.sh scripts to its end, with the test JVM's java, and keeps
 * what it printed. A script that outlives its timeout is killed with every process it started, so a
 * smoke run never leaves a service behind.
 */
final class BenchScript {

  /** What a script printed (stdout and stderr together) and its exit code. */
  record Run(int exitCode, String output) {
    List<String> lines() {
      return output.lines().toList();
    }
  }

  private BenchScript() {}

  /** The repository's root: the parent of the module the tests run in. */
  static Path repo() {
    return Path.of("").toAbsolutePath().getParent();
  }

  static Run run(String script, List<String> args, Map<String, String> env, int timeoutMinutes)
      throws IOException, InterruptedException {
    var command = new java.util.ArrayList<String>(List.of("bash", script));
    command.addAll(args);
    ProcessBuilder bench =
        new ProcessBuilder(command).directory(repo().toFile()).redirectErrorStream(true);
    bench
        .environment()
        .put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    bench.environment().putAll(TestJvms.environment());
    bench.environment().putAll(env);
    Process running = bench.start();
    running.getOutputStream().close();
    var out = new StringBuilder();
    Thread reader =
        new Thread(
            () -> {
              try (var in = running.getInputStream()) {
                out.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                out.append("(reading the script's output failed: ").append(e).append(')');
              }
            });
    reader.start();
    boolean stopped = false;
    if (!running.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
      stopped = true;
      // the script's own trap stops its service on TERM; its children go too
      running.descendants().forEach(ProcessHandle::destroy);
      running.destroy();
      running.waitFor(30, TimeUnit.SECONDS);
      running.descendants().forEach(ProcessHandle::destroyForcibly);
      running.destroyForcibly();
    }
    reader.join(TimeUnit.SECONDS.toMillis(30));
    if (stopped) {
      out.append("(the script ran past its ")
          .append(timeoutMinutes)
          .append(" minutes and was stopped)\n");
    }
    return new Run(running.isAlive() ? -1 : running.exitValue(), out.toString());
  }
}
