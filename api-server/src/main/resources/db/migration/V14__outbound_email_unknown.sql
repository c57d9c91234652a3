-- An email whose hand-over to the SMTP server had no known outcome (see HandOver) is booked as
-- unknown: not sent again, and listed for an operator to look at.
alter table outbound_email drop constraint outbound_email_status_check;
alter table outbound_email
    add constraint outbound_email_status_check check (status in ('sent', 'captured', 'unknown'));
