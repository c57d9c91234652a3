package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the service finds the Temporal CLI and the cluster shape's Temporal tools, and how it
 * builds them: against directories of fake {@code temporal} and {@code go} executables (shell
 * scripts), so that the order of the lookup, the build into the cache, its progress and its lock
 * are seen without the minutes of a real build. The real builds run on any machine whose tests
 * start without them.
 */
class GoToolTest {

  @TempDir Path root;

  @Test
  void theConfiguredCliComesFirstAndMustBeExecutable() throws Exception {
    Path onPath = executable(root.resolve("bin"), "temporal", "echo path");
    Path configured = executable(root.resolve("mine"), "temporal", "echo mine");
    GoTool cli = cli(onPath.getParent().toString(), root.resolve("cache"));

    assertThat(cli.find(configured.toString(), quiet())).isEqualTo(configured);
    assertThatThrownBy(() -> cli.find(root.resolve("nope").toString(), quiet()))
        .isInstanceOf(GoTool.MissingGoTool.class)
        .hasMessageContaining("which is not an executable file");
  }

  @Test
  void pathComesBeforeTheCacheAndTheCacheBeforeABuild() throws Exception {
    Path cache = root.resolve("cache");
    Path cached = executable(cache, "temporal", "echo cached");
    Path onPath = executable(root.resolve("bin"), "temporal", "echo path");
    Path go = executable(root.resolve("go"), "go", "exit 1");

    assertThat(cli(path(onPath, go), cache).find(null, quiet())).isEqualTo(onPath);
    assertThat(cli(path(go), cache).find("  ", quiet())).isEqualTo(cached);
  }

  @Test
  void withNoCliAndNoGoTheMessageSaysHowToGetOne() throws Exception {
    Path empty = Files.createDirectories(root.resolve("empty"));
    GoTool cli = cli(empty.toString(), root.resolve("cache"));

    assertThatThrownBy(() -> cli.find(null, quiet()))
        .isInstanceOfSatisfying(
            GoTool.MissingGoTool.class,
            missing -> {
              assertThat(missing.getMessage()).contains("no `go` on PATH");
              assertThat(missing.action())
                  .contains("brew install temporal")
                  .contains("temporal.download")
                  .contains("go install github.com/temporalio/cli/cmd/temporal@v1.5.1");
            });
  }

  @Test
  void withGoItBuildsOnceIntoTheCacheShowingProgressWhileOthersWait() throws Exception {
    Path calls = root.resolve("go-calls");
    // a go that takes a moment, says what it downloads and compiles, and installs a temporal
    Path go =
        executable(
            root.resolve("go"),
            "go",
            "echo \"$@\" >> " + calls,
            "echo 'go: downloading github.com/temporalio/cli v1.5.1' >&2",
            "for i in $(seq 1 250); do echo example.com/package$i >&2; done",
            "sleep 1",
            "printf '#!/bin/sh\\necho built\\n' > \"$GOBIN/temporal\"",
            "chmod +x \"$GOBIN/temporal\"");
    Path cache = root.resolve("cache");
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(progress, true, StandardCharsets.UTF_8);

    ExecutorService starts = Executors.newFixedThreadPool(3);
    try {
      List<Future<Path>> found =
          List.of(
              starts.submit(() -> cli(path(go), cache).find(null, out)),
              starts.submit(() -> cli(path(go), cache).find(null, out)),
              starts.submit(() -> cli(path(go), cache).find(null, out)));
      for (Future<Path> each : found) {
        assertThat(each.get()).isEqualTo(cache.resolve("temporal"));
      }
    } finally {
      starts.shutdownNow();
    }

    assertThat(Files.readAllLines(calls))
        .as("built once")
        .containsExactly("install -v github.com/temporalio/cli/cmd/temporal@v1.5.1");
    assertThat(Files.isExecutable(cache.resolve("temporal"))).isTrue();
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains(
            "building it once with `go install github.com/temporalio/cli/cmd/temporal@v1.5.1`")
        .contains("[temporal CLI] downloading github.com/temporalio/cli v1.5.1")
        .contains("[temporal CLI] compiled 200 packages ...")
        .contains("[temporal CLI] built " + cache.resolve("temporal"));
  }

  @Test
  void aFailedBuildSaysWhatGoSaid() throws Exception {
    Path go =
        executable(
            root.resolve("go"),
            "go",
            "echo 'go: module lookup disabled by GOPROXY=off' >&2",
            "exit 1");
    GoTool cli = cli(path(go), root.resolve("cache"));

    assertThatThrownBy(() -> cli.find(null, quiet()))
        .isInstanceOf(GoTool.MissingGoTool.class)
        .hasMessageContaining("failed (exit 1)")
        .hasMessageContaining("module lookup disabled by GOPROXY=off");
    assertThat(root.resolve("cache/temporal")).doesNotExist();
  }

  @Test
  void theServerIsBuiltFromItsModuleAndCachedUnderItsOwnName() throws Exception {
    Path calls = root.resolve("go-calls");
    // go install names the binary after the package: cmd/server makes `server`
    Path go =
        executable(
            root.resolve("go"),
            "go",
            "echo \"$@\" >> " + calls,
            "printf '#!/bin/sh\\necho server\\n' > \"$GOBIN/server\"",
            "chmod +x \"$GOBIN/server\"");
    Path cache = root.resolve("cache");
    ByteArrayOutputStream progress = new ByteArrayOutputStream();

    Path found =
        new GoTool(GoTool.TEMPORAL_SERVER, path(go), cache)
            .find(null, new PrintStream(progress, true, StandardCharsets.UTF_8));

    assertThat(found).isEqualTo(cache.resolve("temporal-server"));
    assertThat(Files.isExecutable(found)).isTrue();
    assertThat(Files.readAllLines(calls))
        .containsExactly("install -v go.temporal.io/server/cmd/server@v1.29.1");
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains("[temporal server] none found (TEMPORAL_SERVER, PATH, ")
        .contains("[temporal server] built " + found);
    // a temporal-server on PATH wins, as the CLI's does
    Path onPath = executable(root.resolve("bin"), "temporal-server", "echo path");
    assertThat(
            new GoTool(GoTool.TEMPORAL_SERVER, path(onPath), root.resolve("other"))
                .find(null, quiet()))
        .isEqualTo(onPath);
  }

  @Test
  void withNoSqlToolAndNoGoTheMessageNamesTheImageAndTheModule() throws Exception {
    Path empty = Files.createDirectories(root.resolve("empty"));
    GoTool tool = new GoTool(GoTool.TEMPORAL_SQL_TOOL, empty.toString(), root.resolve("cache"));

    assertThatThrownBy(() -> tool.find(null, quiet()))
        .isInstanceOfSatisfying(
            GoTool.MissingGoTool.class,
            missing -> {
              assertThat(missing.getMessage())
                  .contains("No temporal-sql-tool was found (TEMPORAL_SQL_TOOL,")
                  .contains("no `go` on PATH");
              assertThat(missing.action())
                  .contains("temporalio/admin-tools:1.29.1")
                  .contains("go install go.temporal.io/server/cmd/tools/sql@v1.29.1")
                  .doesNotContain("spring.temporal.connection.target");
            });
  }

  private static GoTool cli(String pathVariable, Path cacheDir) {
    return new GoTool(GoTool.TEMPORAL_CLI, pathVariable, cacheDir);
  }

  private static String path(Path... executables) {
    return String.join(
        java.io.File.pathSeparator,
        java.util.Arrays.stream(executables).map(p -> p.getParent().toString()).toList());
  }

  private static Path executable(Path dir, String name, String... lines) throws Exception {
    Files.createDirectories(dir);
    Path file = dir.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + String.join("\n", lines) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }
}
