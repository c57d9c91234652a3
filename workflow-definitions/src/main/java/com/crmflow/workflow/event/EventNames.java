package com.crmflow.workflow.event;

import java.util.List;

/** The spec's event names, in the order of its Events table. */
public final class EventNames {

  public static final String CONTACT_CREATED = "contact.created";
  public static final String CONTACT_UPDATED = "contact.updated";
  public static final String OPPORTUNITY_CREATED = "opportunity.created";
  public static final String OPPORTUNITY_UPDATED = "opportunity.updated";
  public static final String OPPORTUNITY_STAGE_CHANGED = "opportunity.stage_changed";
  public static final String MEETING_BOOKED = "meeting.booked";
  public static final String MEETING_CANCELLED = "meeting.cancelled";
  public static final String MEETING_NO_SHOW = "meeting.no_show";
  public static final String SEQUENCE_ENROLLED = "sequence.enrolled";
  public static final String SEQUENCE_COMPLETED = "sequence.completed";
  public static final String SEQUENCE_UNENROLLED = "sequence.unenrolled";
  public static final String CONVERSATION_CREATED = "conversation.created";
  public static final String CONVERSATION_OVERRIDE = "conversation.override";

  /**
   * An inbound message arrived in a conversation (the contact wrote): the event a flow waits for to
   * hear back from a contact. Beyond the spec's Events table.
   */
  public static final String CONVERSATION_MESSAGE_RECEIVED = "conversation.message_received";

  public static final String CALL_COMPLETED = "call.completed";
  public static final String CALL_QUALITY_SCORED = "call.quality_scored";

  public static final List<String> ALL =
      List.of(
          CONTACT_CREATED,
          CONTACT_UPDATED,
          OPPORTUNITY_CREATED,
          OPPORTUNITY_UPDATED,
          OPPORTUNITY_STAGE_CHANGED,
          MEETING_BOOKED,
          MEETING_CANCELLED,
          MEETING_NO_SHOW,
          SEQUENCE_ENROLLED,
          SEQUENCE_COMPLETED,
          SEQUENCE_UNENROLLED,
          CONVERSATION_CREATED,
          CONVERSATION_OVERRIDE,
          CONVERSATION_MESSAGE_RECEIVED,
          CALL_COMPLETED,
          CALL_QUALITY_SCORED);

  /** The record a run's watch of an event's record is of: a deal's events are the deal's. */
  public static final String OPPORTUNITY = "opportunity";

  /** The record every other event is about: its contact ({@code data.contact_id}). */
  public static final String CONTACT = "contact";

  /**
   * Which record of a run an event is about, when the run waits for it: {@value #OPPORTUNITY} for
   * the deal's events ({@code opportunity.*}, its {@code data.opportunity_id}), {@value #CONTACT}
   * for every other ({@code data.contact_id}).
   */
  public static String recordOf(String event) {
    return event != null && event.startsWith(OPPORTUNITY + ".") ? OPPORTUNITY : CONTACT;
  }

  private EventNames() {}
}
