package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.action.EmailContext;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.node.ConfigCheck;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.DryRuns;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivities;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeConfig;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeFailure;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.node.NodeSkipped;
import com.crmflow.workflow.node.SendWindow;
import com.crmflow.workflow.template.TemplateResolver;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * email: waits for its send window if it has one ({@link SendWindows}), reads the contact (as it is
 * now) and the template, renders, sends over SMTP (the integrations queue), and books the email.
 * The recipient is {@code to} (variables allowed) or the run's contact; an email to a contact with
 * do_not_email is skipped, not failed.
 *
 * <p>The node's own {@code to}, {@code subject} and {@code body} render against the whole run
 * scope, as every config value does (they are part of the canvas, so {@link FlowAccess} sees what
 * they read). A stored template's subject and bodies render against {@code contact} and {@code
 * trigger} only: a template is edited apart from the flows that use it, and what it can read is
 * what the email node is already counted as reading (the contact) and the run's trigger.
 */
final class EmailNode implements NodeExecutor {

  /** The contact and template read before the send, and the booking after it. */
  static final NodeActivity<EmailBookActivities> BOOK =
      NodeActivity.on(TaskQueues.CRM, EmailBookActivities.class).orLocal();

  /** The send: never local, so that a failed workflow task never sends twice. */
  static final NodeActivity<EmailActivities> SEND =
      NodeActivity.on(TaskQueues.INTEGRATIONS, EmailActivities.class);

  @Override
  public List<NodeActivity<?>> activities() {
    return List.of(BOOK, SEND, SendWindows.ACTIVITY);
  }

  /**
   * A run with this change books an email whose outcome is unknown (status unknown); a run without
   * it does not book it.
   */
  static final String BOOK_UNKNOWN_EMAIL = "book-unknown-email";

  /**
   * In a run with this change a stored template renders against {@code contact} and {@code trigger}
   * only; in a run without it, against the whole run scope.
   */
  static final String TEMPLATE_READS_CONTACT_AND_TRIGGER = "template-reads-contact-and-trigger";

  @Override
  public NodeType type() {
    return NodeType.EMAIL;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.EMAIL,
            "Email",
            NodeDescriptor.ACTIONS,
            "mail",
            "sends an email to the run's contact",
            List.of(
                ConfigField.template("subject", "Subject")
                    .asContent()
                    .help("required unless templateId is set"),
                ConfigField.template("body", "Body")
                    .asMultiline()
                    .help("plain text; overrides the template's body"),
                ConfigField.of("templateId", "Email template", FieldKind.EMAIL_TEMPLATE)
                    .asContent()
                    .check(ConfigCheck.UUID)
                    .help("a stored email template"),
                ConfigField.template("to", "To (default: the run’s contact)"),
                ConfigField.text("bodyHint", "Body hint")
                    .help("what the body should say when the author did not write it; not sent"),
                SendWindows.field().help("the email waits for it; " + SendWindows.field().help())),
            NodeAccess.reads(FlowAccess.CONTACT),
            List.of())
        .withAdvice(NodeDescriptor.Advice.MESSAGE)
        .withSummary(NodeDescriptor.Summary.of(" · ", "subject", "templateId"))
        .withMechanics("messageId", "status")
        .withOutput(
            "messageId",
            "the sent message’s id",
            "to",
            "the address it went to",
            "subject",
            "the subject as sent",
            "status",
            "sent, or captured when no mail server is set");
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    if (node.config("templateId") == null && NodeConfig.isBlank(node.config("subject"))) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.subject", "an email needs templateId or subject"));
    }
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    SendWindow window = SendWindows.of(node);
    Map<String, Object> waited =
        window == null
            ? null
            : SendWindows.await(
                node,
                run,
                window,
                Instant.ofEpochMilli(Workflow.currentTimeMillis()),
                SendWindows.logged(node, run),
                "wait for the send window");
    Map<String, Object> output = send(node, run);
    if (waited != null) {
      output.put("window", waited);
    }
    return output;
  }

  /**
   * In a test run: the email as it would go out (reads the contact and template and renders, as a
   * run does), neither sent nor booked, nor waiting for its send window.
   */
  @Override
  public Map<String, Object> wouldDo(CanvasNode node, NodeRun run) {
    EmailMessage message = render(node, run);
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("to", message.to());
    shown.put("subject", message.subject());
    shown.put("body", message.textBody());
    if (message.htmlBody() != null) {
      shown.put("html_body", message.htmlBody());
    }
    if (SendWindows.of(node) != null) {
      shown.put("would_wait", "for its send window");
    }
    return DryRuns.wouldDo(shown);
  }

  /** Reads the contact and template, renders, sends and books the email. */
  private Map<String, Object> send(CanvasNode node, NodeRun run) {
    EmailMessage message = render(node, run);
    run.requireFitsInHistory("email", message);
    return deliver(node, run, message);
  }

  /**
   * Reads the contact (as it is now) and the template, and renders the email.
   *
   * @throws NodeSkipped the contact has do_not_email
   */
  private static EmailMessage render(CanvasNode node, NodeRun run) {
    RunInput input = run.input();
    Map<String, Object> scope = run.scope();
    String contactId = run.contactId();
    String templateId = NodeConfig.string(node, "templateId");
    EmailContext context =
        contactId == null && templateId == null
            ? new EmailContext(null, null, null, null)
            : NodeActivities.call(
                BOOK,
                node,
                run,
                crm -> crm.context(input.tenantId(), contactId, templateId),
                input.tenantId(),
                contactId,
                templateId);
    if (context.contact() != null) {
      scope.put("contact", context.contact());
    }
    String configuredTo = NodeConfig.string(node, "to");
    String contactEmail =
        context.contact() == null ? null : (String) context.contact().get("email");
    String to = configuredTo == null ? contactEmail : TemplateResolver.render(configuredTo, scope);
    if (to == null || to.isBlank()) {
      throw new NodeFailure("the email has no recipient: no `to` and no contact with an email");
    }
    if (context.contact() != null
        && Boolean.TRUE.equals(context.contact().get("do_not_email"))
        && to.trim().equalsIgnoreCase(contactEmail)) {
      throw new NodeSkipped("contact has do_not_email");
    }
    Map<String, Object> templateScope = scope;
    if ((context.subject() != null || context.textBody() != null || context.htmlBody() != null)
        && run.since(TEMPLATE_READS_CONTACT_AND_TRIGGER)) {
      templateScope = new LinkedHashMap<>();
      templateScope.put("trigger", scope.get("trigger"));
      if (context.contact() != null) {
        templateScope.put("contact", context.contact());
      }
    }
    String configSubject = NodeConfig.string(node, "subject");
    String configText = NodeConfig.string(node, "body");
    String subject =
        configSubject != null
            ? TemplateResolver.render(configSubject, scope)
            : TemplateResolver.render(firstNonNull(context.subject(), "", null), templateScope);
    String text =
        configText != null
            ? TemplateResolver.render(configText, scope)
            : TemplateResolver.render(context.textBody(), templateScope);
    return new EmailMessage(
        EmailMessage.messageIdFor(input.runId(), node.id()),
        to.trim(),
        subject,
        text,
        TemplateResolver.render(context.htmlBody(), templateScope));
  }

  private static Map<String, Object> deliver(CanvasNode node, NodeRun run, EmailMessage message) {
    EmailActivities smtp =
        NodeActivities.stub(
            SEND,
            node,
            new NodeActivities.Options(
                Duration.ofSeconds(60),
                RetryOptions.newBuilder()
                    .setInitialInterval(Duration.ofSeconds(5))
                    .setBackoffCoefficient(2)
                    .setMaximumInterval(Duration.ofMinutes(10))
                    .setMaximumAttempts(12)
                    .setDoNotRetry(EmailActivities.INVALID_ADDRESS)
                    .build()));
    EmailReceipt receipt;
    try {
      receipt = smtp.send(message);
    } catch (ActivityFailure failure) {
      // booked as unknown, so operators find it among the outbound emails; the node still fails
      if (failure.getCause() instanceof ApplicationFailure cause
          && EmailActivities.OUTCOME_UNKNOWN.equals(cause.getType())
          && run.since(BOOK_UNKNOWN_EMAIL)) {
        book(node, run, message, EmailReceipt.UNKNOWN);
      }
      throw failure;
    }
    book(node, run, message, receipt.status());
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("messageId", message.messageId());
    output.put("to", message.to());
    output.put("subject", message.subject());
    output.put("status", receipt.status());
    return output;
  }

  /** Books the email once per (run, node): run again, it stores nothing twice. */
  private static void book(CanvasNode node, NodeRun run, EmailMessage message, String status) {
    RunInput input = run.input();
    NodeActivities.call(
        BOOK,
        node,
        run,
        crm -> {
          crm.record(input.tenantId(), input.runId(), node.id(), message, status);
          return null;
        },
        input.tenantId(),
        input.runId(),
        node.id(),
        message,
        status);
  }

  @Override
  public boolean sideEffect() {
    return true;
  }

  private static String firstNonNull(String first, String second, String otherwise) {
    return first != null ? first : second != null ? second : otherwise;
  }

  /** Its stored template renders against the trigger's payload too. */
  @Override
  public Set<String> variablesReadUnnamed(CanvasNode node) {
    return Set.of(FlowAccess.TRIGGER);
  }

  /** It reads the contact as it is when it sends: the address and do_not_email then. */
  @Override
  public boolean readsContactAfresh() {
    return true;
  }
}
