package com.crmflow.api.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.registration.NodeExecutors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A problem in the words of the canvas's author, for the node types of the catalog it is given. */
class CanvasWordsTest {

  /** A type of the tests only, whose config keys are camel case. */
  private record FollowUp() implements NodeExecutor {
    @Override
    public NodeDescriptor descriptor() {
      return new NodeDescriptor(
          new NodeType("follow_up", false),
          "Follow up",
          NodeDescriptor.ACTIONS,
          "clock",
          "reminds the owner later",
          List.of(
              ConfigField.number("dueInDays", "Due in days", 0, 30),
              ConfigField.text("remindBy", "Remind by")),
          NodeAccess.NONE,
          List.of());
    }

    @Override
    public Map<String, Object> execute(CanvasNode node, NodeRun run) {
      return Map.of();
    }
  }

  private static final Canvas CANVAS =
      new Canvas(
          List.of(
              new CanvasNode(
                  "later", "follow_up", new Position(0, 0), new NodeData("Call back", Map.of()))),
          List.of());

  private static final CanvasProblem PROBLEM =
      CanvasProblem.node(
          "later", "data.config.dueInDays", "is needed when remindBy is set (later)");

  @Test
  void theConfigKeysOfATypeTheCatalogAddsAreNamedByTheirLabels() {
    NodeCatalog catalog = NodeExecutors.with(List.of(new FollowUp()));

    CanvasWords.Worded worded = new CanvasWords(CANVAS, catalog).word(PROBLEM);

    assertThat(worded.nodeLabel()).isEqualTo("Call back");
    assertThat(worded.fieldLabel()).isEqualTo("Due in days");
    assertThat(worded.text())
        .isEqualTo("“Call back” · Due in days is needed when Remind by is set (“Call back”)");
    assertThat(worded.message()).isEqualTo(PROBLEM.message());
  }

  @Test
  void aTypeOutsideTheCatalogKeepsItsKeys() {
    CanvasWords.Worded worded = new CanvasWords(CANVAS, NodeExecutors.catalog()).word(PROBLEM);

    assertThat(worded.text())
        .isEqualTo("“Call back” · Due in days is needed when remindBy is set (“Call back”)");
  }
}
