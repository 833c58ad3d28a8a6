-- The relay is now woken in-process after each commit that wrote an event. The NOTIFY trigger goes:
-- a notifying transaction holds PostgreSQL's notify-queue lock from its commit until its WAL flush ends,
-- so every state change of every writer committed one after another (bench/RESULTS.md, "Mandates").
drop trigger if exists outbox_event_inserted on outbox_event;
drop function if exists outbox_event_notify();
