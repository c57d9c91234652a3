package com.crmflow.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's comments describe the product as it is: an interpreter change says what a run with
 * it and a run without it do, not how the code was before ("Before this version … Now …").
 */
class PresentTenseTest {

  /** Phrases that narrate the code's history, in lower case ("now" only as a sentence's start). */
  private static final List<String> HISTORY =
      List.of(
          "before this version",
          "since this version",
          "from this version on",
          "used to ",
          "previously",
          ". now ",
          "* now ",
          ". now, ",
          "old code",
          "old builds");

  @Test
  void theEnginesCommentsSpeakOfTheProductInThePresentTense() throws IOException {
    Path sources = Path.of("src/main/java/com/crmflow/workflow");
    assertThat(sources).as("run from the module's directory").isDirectory();
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          String line = lines.get(i).trim();
          if (!(line.startsWith("*") || line.startsWith("//") || line.startsWith("/*"))) {
            continue;
          }
          String text = " " + line.toLowerCase(Locale.ROOT) + " ";
          for (String phrase : HISTORY) {
            if (text.contains(phrase)) {
              found.add(file.getFileName() + ":" + (i + 1) + ": " + line);
            }
          }
        }
      }
    }
    assertThat(found).isEmpty();
  }
}
