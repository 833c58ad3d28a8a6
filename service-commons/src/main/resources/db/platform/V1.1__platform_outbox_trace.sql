-- The W3C traceparent of the code that wrote the event, so the relay can put it on the Kafka record
-- and consumers continue the trace. Versioned 1.1: platform migrations take V1.x, services V2 and up
-- (quarkus.flyway.out-of-order lets databases created before this file apply it).
alter table outbox_event add column trace_parent varchar(128);
