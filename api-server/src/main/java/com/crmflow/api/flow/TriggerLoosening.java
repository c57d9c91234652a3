package com.crmflow.api.flow;

import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.NodeCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a change would loosen of an active automation's triggers: a webhook trigger that loses its
 * secretToken (it would start runs for calls without X-Webhook-Secret), a trigger whose type
 * changes, and a webhook trigger without a secretToken that was not one before (anyone with its
 * path could start runs). A change that loosens nothing of that is no concern here; removing a
 * trigger or adding a secret only tightens.
 */
public final class TriggerLoosening {

  /** The query parameter that confirms a change which loosens an active automation's triggers. */
  public static final String CONFIRM = "confirm_looser_triggers";

  public static final String CONFIRM_DOC =
      "true stores a change that loosens an active automation's triggers: one that removes a"
          + " webhook trigger's secretToken, changes a trigger's type, or adds a webhook trigger"
          + " without a secretToken. Without it such a change is refused (409) and nothing is"
          + " stored; the problem's errors name each trigger and what would loosen.";

  private TriggerLoosening() {}

  /** Each trigger of {@code next} that loosens what {@code current} has, as a field problem. */
  static List<FieldProblem> of(Canvas current, Canvas next, NodeCatalog catalog) {
    List<FieldProblem> looser = new ArrayList<>();
    for (CanvasNode node : catalog.triggers(next)) {
      Optional<CanvasNode> before =
          current.node(node.id()).filter(was -> catalog.isTrigger(was.type()));
      boolean publicNow = isPublicWebhook(node);
      String field = "nodes." + node.id();
      if (before.isPresent() && !before.get().type().equals(node.type())) {
        looser.add(
            new FieldProblem(
                field + ".type",
                "changes this active trigger from "
                    + before.get().type()
                    + " to "
                    + node.type()
                    + (publicNow
                        ? ", without a secretToken: anyone with its path could start runs"
                        : "")));
      } else if (publicNow && before.isPresent() && !isPublicWebhook(before.get())) {
        looser.add(
            new FieldProblem(
                field + ".data.config.secretToken",
                "is removed from this active webhook trigger: it would start runs for calls"
                    + " without X-Webhook-Secret"));
      } else if (publicNow && before.isEmpty()) {
        looser.add(
            new FieldProblem(
                field,
                "is a new webhook trigger without a secretToken on this active automation: anyone"
                    + " with its path could start runs"));
      }
    }
    return looser;
  }

  private static boolean isPublicWebhook(CanvasNode node) {
    return NodeType.WEBHOOK_TRIGGER.value().equals(node.type())
        && !(node.config("secretToken") instanceof String secret && !secret.isEmpty());
  }

  /**
   * The detail of the refusal of a change that would loosen the triggers of the named automation.
   */
  static String refusal(String automation, int loosened) {
    return "This change would loosen the triggers of the active automation \""
        + automation
        + "\" ("
        + loosened
        + (loosened == 1 ? " trigger" : " triggers")
        + ", named in errors); nothing was stored. Runs in progress go on with the version they"
        + " started with either way. To store it, send it again with "
        + CONFIRM
        + "=true, or pause the automation first.";
  }
}
