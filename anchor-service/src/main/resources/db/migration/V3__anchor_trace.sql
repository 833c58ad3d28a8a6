-- The W3C traceparent of the mandate event an intent came from, so its receipt continues that trace.
alter table anchor_intent add column trace_parent varchar(128);
