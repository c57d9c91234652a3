package com.crmflow.workflow.run;

import com.crmflow.workflow.contract.RunInputBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Records the run of {@link Canvases#urlValues} with trigger values that would reshape a url
 * written into it as text: {@code "123#"} (cuts the path), {@code "true&admin=1"} (adds a
 * parameter) and {@code ".."} (a dot segment); {@code local-} files on the embedded defaults (local
 * activities), {@code remote-} files as the distributed profile starts runs (activities through
 * their queues, where a replay checks each one scheduled). The {@code -as-text} files were recorded
 * before {@code url-values-encoded} (each value went into the url as it was, and both calls were
 * made), the {@code -encoded} ones after it (the first call's values encoded for their parts, the
 * second node failed without calling). Run like {@link HistoryRecorder}, with this class as the
 * main class and the file's name as the second argument; never rewrite a recorded file.
 */
public final class UrlHistoryRecorder {

  private UrlHistoryRecorder() {}

  public static void main(String[] args) throws Exception {
    Path target =
        Path.of(args.length > 0 ? args[0] : "workflow-definitions/src/test/resources/histories");
    String name = args.length > 1 ? args[1] : "local-url-values-encoded";
    Files.createDirectories(target);
    RunInputBuilder run =
        RunInputBuilder.run(name, Canvases.urlValues())
            .payload(Map.of("order_id", "123#", "force", "true&admin=1", "dots", ".."))
            .startedWithChanges(InterpreterChanges.CHANGES);
    // local-: on the embedded defaults; remote-: as the distributed profile starts it
    HistoryRecorder.record(
        target,
        name.startsWith("local-") ? run.embedded().build() : run.inlineChains(true).build(),
        false);
  }
}
