package dev.agentpay.commons.outbox;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** One event waiting in the outbox (see {@code V1__platform_outbox.sql}); written only through {@link Outbox}. */
@Entity
@Table(name = "outbox_event")
public class OutboxRecord extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(insertable = false, updatable = false)
    public Long seq;

    public String topic;

    @Column(name = "aggregate_id")
    public String aggregateId;

    @Column(name = "partner_id")
    public String partnerId;

    public String type;

    public String payload;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "published_at")
    public Instant publishedAt;

    /** W3C {@code traceparent} of the writer (see {@code V1.1__platform_outbox_trace.sql}), null outside a trace. */
    @Column(name = "trace_parent")
    public String traceParent;
}
