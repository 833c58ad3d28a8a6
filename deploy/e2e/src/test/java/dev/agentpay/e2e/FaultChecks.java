package dev.agentpay.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.chain.EvmRpc;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The invariants of the fault suite, counted. Sources: the HTTP API (what partners see), the chains
 * (eth_getLogs, receipts), Kafka (what was published) and the services' databases, read only, as an
 * auditor (which rows committed, which consumer recorded which event).
 */
final class FaultChecks {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PARTNER = "dev-partner-1";
    /** keccak("Transfer(address,address,uint256)") */
    private static final String TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
    /** keccak("Swept(bytes32,address,address,uint256)"), the deposit factory's event */
    private static final String SWEPT_TOPIC = org.web3j.crypto.Hash.sha3String("Swept(bytes32,address,address,uint256)");

    /** One invariant's count. */
    record Row(String name, int checked, int violations) {
    }

    record Result(List<Row> rows, List<String> notes, String details, int deliveriesReceived) {
        int violations() {
            return rows.stream().mapToInt(Row::violations).sum();
        }

        String summary() {
            StringBuilder sb = new StringBuilder();
            rows.stream().filter(r -> r.violations() > 0).forEach(r -> sb.append(r.name()).append('=').append(r.violations()).append("; "));
            return sb.toString();
        }
    }

    private final Map<String, String> env;
    private final FaultLoad load;
    private final WebhookReceiver receiver;
    private final Faults faults;
    private final Timestamp start;
    private final Timestamp subscribedAt;
    private final List<String> paths;
    private final StackDb db;
    private final Map<String, BigInteger> sellerBefore;

    private List<Row> rows;
    private List<String> notes;
    private StringBuilder details;

    FaultChecks(Map<String, String> env, FaultLoad load, WebhookReceiver receiver, Faults faults, Instant start,
            Instant subscribedAt, List<String> paths, Map<String, BigInteger> sellerBefore) {
        this.env = env;
        this.load = load;
        this.receiver = receiver;
        this.faults = faults;
        this.start = Timestamp.from(start);
        this.subscribedAt = Timestamp.from(subscribedAt);
        this.paths = paths;
        this.db = new StackDb(env);
        this.sellerBefore = sellerBefore;
    }

    /** The EVM payment chains the stack sweeps (a deposit factory in its env). */
    static List<String> sweptChains(Map<String, String> env) {
        return FaultLoad.PAYMENT_CHAINS.stream().filter(c -> env.get(prefix(c) + "_DEPOSIT_FACTORY_ADDRESS") != null).toList();
    }

    private static String prefix(String chain) {
        return "CHAIN_" + chain.toUpperCase(Locale.ROOT);
    }

    /** The seller wallet's USDC balance on each swept chain. */
    static Map<String, BigInteger> sellerBalances(Map<String, String> env) {
        Map<String, BigInteger> out = new LinkedHashMap<>();
        for (String chain : sweptChains(env)) {
            out.put(chain, dev.agentpay.localstack.chain.UsdcInstaller.balanceOf(new EvmRpc(env.get(prefix(chain) + "_RPC_URL")),
                    FaultLoad.usdc(chain), env.get(prefix(chain) + "_PAYMENT_ADDRESS")));
        }
        return out;
    }

    /** A counter for one invariant. */
    private final class Check {
        final String name;
        int checked;
        int violations;
        boolean shown;

        Check(String name) {
            this.name = name;
        }

        void ok(boolean holds, String what) {
            checked++;
            if (!holds) {
                violations++;
                if (!shown) {
                    details.append(name).append(": ").append(what).append('\n');
                    shown = true;
                }
            }
        }

        void done() {
            rows.add(new Row(name, checked, violations));
        }
    }

    synchronized Result run() throws Exception {
        rows = new ArrayList<>();
        notes = new ArrayList<>();
        details = new StringBuilder();
        String kafka = env.get("KAFKA_BOOTSTRAP_SERVERS");

        // --- mandates ---------------------------------------------------------------------------
        List<Map<String, Object>> transitions = query("mandate",
                "select t.id::text as tid, t.mandate_id, t.from_state, t.to_state, t.anchor_tx_hash, m.proto_mandate_hash"
                        + " from mandate_transition t join mandate m on m.id = t.mandate_id"
                        + " where m.partner_id = ? and m.created_at >= ?", PARTNER, start);
        Check durable = new Check("acknowledged mandate steps are what the API shows");
        for (FaultLoad.AckedMandate m : load.mandates.values()) {
            Calls.Answer a = load.calls.retrying("check.mandate.get", "GET", "/v1/mandates/" + m.id(), null, Map.of(), Duration.ofSeconds(60));
            String state = a.ok() ? JSON.readTree(a.body()).path("data").path("state").asText() : "HTTP " + a.status();
            durable.ok(m.expectedState().equals(state), m.id() + " expected " + m.expectedState() + " got " + state);
        }
        durable.done();

        List<Kafka.Rec> mandateEvents = Kafka.readAll(kafka, "mandate-events");
        Map<String, Set<String>> eventIdsByTransition = new HashMap<>();
        for (Kafka.Rec r : mandateEvents) {
            JsonNode v = JSON.readTree(r.value());
            // mandate.anchored names the transition whose receipt it reports; it is not that transition's event
            if (v.hasNonNull("transitionId") && !"mandate.anchored".equals(v.path("type").asText())) {
                eventIdsByTransition.computeIfAbsent(v.get("transitionId").asText(), k -> new HashSet<>()).add(r.eventId());
            }
        }
        Check produced = new Check("every mandate transition has exactly one event on mandate-events");
        for (Map<String, Object> t : transitions) {
            Set<String> ids = eventIdsByTransition.getOrDefault((String) t.get("tid"), Set.of());
            produced.ok(ids.size() == 1, "transition " + t.get("tid") + " of " + t.get("mandate_id") + " -> " + t.get("to_state") + ": " + ids.size() + " event ids");
        }
        produced.done();

        Check outbox = new Check("every committed outbox row was published (5 services)");
        for (String database : List.of("mandate", "invoice", "anchor", "watcher", "discovery")) {
            for (Map<String, Object> r : query(database, "select id::text as id, type, published_at from outbox_event where created_at >= ?", start)) {
                outbox.ok(r.get("published_at") != null, database + " outbox row " + r.get("id") + " " + r.get("type") + " unpublished");
            }
        }
        outbox.done();

        // anchor-service consumed each transition after creation once; the chain holds one MandateAnchored each
        Map<String, Map<String, Object>> intents = new HashMap<>();
        for (Map<String, Object> r : query("anchor", "select transition_id, status from anchor_intent where received_at >= ?", start)) {
            intents.put((String) r.get("transition_id"), r);
        }
        Map<String, List<String>> logs = anchorLogs();
        Check consumed = new Check("anchor-service recorded each transition after creation (ANCHORED)");
        Check anchored = new Check("every transition after creation anchored exactly once on chain, its hash on the mandate");
        Check creation = new Check("no creation transition anchored");
        for (Map<String, Object> t : transitions) {
            String key = ((String) t.get("proto_mandate_hash")).toLowerCase(Locale.ROOT) + "|" + t.get("to_state");
            List<String> txs = logs.getOrDefault(key, List.of());
            if (t.get("from_state") == null) {
                creation.ok(txs.isEmpty(), t.get("mandate_id") + " creation anchored " + txs.size() + "x");
                continue;
            }
            Map<String, Object> intent = intents.get((String) t.get("tid"));
            consumed.ok(intent != null && "ANCHORED".equals(intent.get("status")), "transition " + t.get("tid") + " intent " + intent);
            anchored.ok(txs.size() == 1 && txs.get(0).equalsIgnoreCase(String.valueOf(t.get("anchor_tx_hash"))),
                    t.get("mandate_id") + " " + t.get("to_state") + ": " + txs.size() + " logs " + txs + ", mandate shows " + t.get("anchor_tx_hash"));
        }
        consumed.done();
        anchored.done();
        creation.done();

        // --- invoices and payments --------------------------------------------------------------------
        List<Map<String, Object>> invoices = query("invoice",
                "select id::text as id, status, chain, payment_address, usdc_address, payable_atomic::text as payable, tx_hash,"
                        + " settlement_transfer_id, settlement_source from invoice where partner_id = ? and created_at >= ?", PARTNER, start);
        Map<String, Map<String, Object>> invoiceById = new HashMap<>();
        invoices.forEach(i -> invoiceById.put((String) i.get("id"), i));
        List<Kafka.Rec> invoiceEvents = Kafka.readAll(kafka, "invoice-events");
        Map<String, Map<String, Set<String>>> invoiceEventIds = new HashMap<>(); // invoice -> type -> event ids
        for (Kafka.Rec r : invoiceEvents) {
            JsonNode v = JSON.readTree(r.value());
            invoiceEventIds.computeIfAbsent(r.key(), k -> new HashMap<>()).computeIfAbsent(v.path("type").asText(), k -> new HashSet<>()).add(r.eventId());
        }
        Check invoiceEventsCheck = new Check("every invoice has one invoice.created, settled - unsettled events match its status");
        for (Map<String, Object> inv : invoices) {
            Map<String, Set<String>> types = invoiceEventIds.getOrDefault((String) inv.get("id"), Map.of());
            int created = types.getOrDefault("invoice.created", Set.of()).size();
            int settled = types.getOrDefault("invoice.settled", Set.of()).size();
            int unsettled = types.getOrDefault("invoice.unsettled", Set.of()).size();
            int expected = "SETTLED".equals(inv.get("status")) ? 1 : 0;
            invoiceEventsCheck.ok(created == 1 && settled - unsettled == expected,
                    inv.get("id") + " " + inv.get("status") + ": created " + created + ", settled " + settled + ", unsettled " + unsettled);
        }
        invoiceEventsCheck.done();

        Set<String> processedByInvoice = new HashSet<>(strings("invoice", "select event_id::text from processed_event where processed_at >= ?", start));
        Check transfersConsumed = new Check("every chain-transfers event was applied by invoice-service");
        Check escrowConsumed = new Check("every escrow-events event was applied by mandate-service (a release or roll-back by invoice-service too)");
        Set<String> processedByMandate = new HashSet<>(strings("mandate", "select event_id::text from processed_event where processed_at >= ?", start));
        for (Map<String, Object> r : query("watcher", "select id::text as id, topic, type from outbox_event where created_at >= ?", start)) {
            String id = (String) r.get("id");
            String type = (String) r.get("type");
            if ("escrow-events".equals(r.get("topic"))) {
                boolean invoiceToo = type.equals("escrow.released") || type.equals("escrow.rolled_back");
                escrowConsumed.ok(processedByMandate.contains(id) && (!invoiceToo || processedByInvoice.contains(id)),
                        "escrow-events event " + id + " " + type + " not applied");
            } else if ("chain-transfers".equals(r.get("topic"))) {
                transfersConsumed.ok(processedByInvoice.contains(id), "chain-transfers event " + id + " " + type + " not applied");
            }
        }
        transfersConsumed.done();
        escrowConsumed.done();

        Check settledOnce = new Check("every transfer still on chain settled its invoice (exactly one)");
        Check retracted = new Check("no reorged-out transfer left an invoice SETTLED");
        Map<String, JsonNode> receipts = new HashMap<>();
        int gone = 0;
        for (FaultLoad.Payment p : load.payments) {
            EvmRpc rpc = new EvmRpc(faults.rpcUrl(p.chain()));
            JsonNode receipt = rpc.call("eth_getTransactionReceipt", p.txHash());
            receipts.put(p.txHash().toLowerCase(Locale.ROOT), receipt);
            Map<String, Object> inv = invoiceById.get(p.invoiceId());
            String settledBy = inv == null ? null : (String) inv.get("tx_hash");
            if (receipt != null && !receipt.isNull() && "0x1".equals(receipt.path("status").asText())) {
                long settling = invoices.stream().filter(i -> p.txHash().equalsIgnoreCase((String) i.get("tx_hash"))).count();
                settledOnce.ok(inv != null && "SETTLED".equals(inv.get("status")) && settling == 1,
                        p.chain() + " tx " + p.txHash() + " for " + p.invoiceId() + ": invoice " + (inv == null ? "missing" : inv.get("status") + " by " + settledBy) + ", settles " + settling);
            } else {
                gone++;
                retracted.ok(!(inv != null && "SETTLED".equals(inv.get("status")) && p.txHash().equalsIgnoreCase(settledBy)),
                        p.chain() + " tx " + p.txHash() + " is not on chain but settled " + p.invoiceId());
            }
        }
        settledOnce.done();
        retracted.done();
        notes.add(gone + " of " + load.payments.size() + " payments are not on their chain any more (reorged out or lost with a killed chain's last blocks); their invoices must stay PENDING");

        Check settledHasTransfer = new Check("every SETTLED invoice's transfer is on chain, to its address, of its exact amount (from escrow: a release)");
        for (Map<String, Object> inv : invoices) {
            if (!"SETTLED".equals(inv.get("status"))) {
                continue;
            }
            String tx = ((String) inv.get("tx_hash")).toLowerCase(Locale.ROOT);
            JsonNode receipt = receipts.computeIfAbsent(tx, h -> new EvmRpc(faults.rpcUrl((String) inv.get("chain"))).call("eth_getTransactionReceipt", h));
            boolean found = false;
            boolean fromEscrow = "escrow".equals(inv.get("settlement_source"));
            if (receipt != null && !receipt.isNull()) {
                for (JsonNode log : receipt.path("logs")) {
                    if (fromEscrow) {
                        // a charge paid from its mandate's escrow (issue 30): its tx is the escrow's release (escrows() matches refs)
                        found |= log.path("address").asText().equalsIgnoreCase(env.get(prefix((String) inv.get("chain")) + "_ESCROW_ADDRESS"))
                                && log.path("topics").path(0).asText().equals(dev.agentpay.commons.chains.escrow.MandateEscrowAbi.Kind.RELEASED.topic());
                    } else if (log.path("address").asText().equalsIgnoreCase((String) inv.get("usdc_address"))
                            && log.path("topics").path(0).asText().equals(TRANSFER_TOPIC)
                            && log.path("topics").path(2).asText().toLowerCase(Locale.ROOT).endsWith(((String) inv.get("payment_address")).substring(2).toLowerCase(Locale.ROOT))
                            && new BigInteger(log.path("data").asText().substring(2), 16).equals(new BigInteger((String) inv.get("payable")))) {
                        found = true;
                    }
                }
            }
            settledHasTransfer.ok(found, "invoice " + inv.get("id") + " SETTLED by " + tx + " which is not on chain as its payment");
        }
        settledHasTransfer.done();

        sweeps(invoices);
        budgets();
        escrows();

        // --- x402 ----------------------------------------------------------------------------------------
        Map<String, Map<String, Object>> x402ByNonce = new HashMap<>();
        List<Map<String, Object>> x402Rows = query("invoice", "select id::text as id, nonce, state, invoice_id::text as invoice_id"
                + " from x402_payment where created_at >= ?", start);
        Map<String, Integer> paymentsPerInvoice = new HashMap<>();
        for (Map<String, Object> r : x402Rows) {
            if (r.get("nonce") != null) {
                x402ByNonce.put(((String) r.get("nonce")).toLowerCase(Locale.ROOT), r);
            }
            if (r.get("invoice_id") != null) {
                paymentsPerInvoice.merge((String) r.get("invoice_id"), 1, Integer::sum);
            }
        }
        Set<String> invoiceIds = new HashSet<>(strings("invoice", "select id::text from invoice where created_at >= ?", start));
        EvmRpc x402Chain = new EvmRpc(faults.rpcUrl("base"));
        String x402Token = FaultLoad.usdc("base");
        String payerWord = EvmRpc.word(env.get("DEV_PAYER_ADDRESS"));
        Check x402Accepted = new Check("every x402 payment accepted at most once, and an accepted one is COMPLETED with the invoice it answered");
        Check x402Charged = new Check("an x402 authorization used on chain has exactly one invoice; an unused one has none");
        int x402Used = 0;
        for (FaultLoad.X402Payment p : load.x402Payments) {
            Map<String, Object> row = x402ByNonce.get(p.nonce().toLowerCase(Locale.ROOT));
            String state = row == null ? "no row" : (String) row.get("state");
            String invoiceId = row == null ? null : (String) row.get("invoice_id");
            x402Accepted.ok(p.acceptedInvoiceIds().size() <= 1 && (p.acceptedInvoiceIds().isEmpty()
                            || ("COMPLETED".equals(state) && p.acceptedInvoiceIds().get(0).equals(invoiceId))),
                    "payment " + p.nonce() + ": answered 200 with " + p.acceptedInvoiceIds() + ", recorded " + state + " invoice " + invoiceId);
            String used = x402Chain.ethCall(x402Token, "0xe94a0102" + payerWord + p.nonce().substring(2));
            boolean onChain = used != null && new BigInteger(used.substring(2).isEmpty() ? "0" : used.substring(2), 16).signum() != 0;
            if (onChain) {
                x402Used++;
                x402Charged.ok("COMPLETED".equals(state) && invoiceId != null && invoiceIds.contains(invoiceId)
                                && paymentsPerInvoice.getOrDefault(invoiceId, 0) == 1,
                        "payment " + p.nonce() + " used on chain: recorded " + state + ", invoice " + invoiceId
                                + (invoiceId != null && !invoiceIds.contains(invoiceId) ? " (missing)" : ""));
            } else {
                x402Charged.ok(row == null || "FAILED".equals(state),
                        "payment " + p.nonce() + " not used on chain but recorded " + state + " (final answer " + p.finalStatus() + " " + p.finalCode() + ")");
            }
        }
        x402Accepted.done();
        x402Charged.done();
        Check x402Open = new Check("no x402 payment left open (SETTLING or SETTLED without its invoice)");
        for (Map<String, Object> r : x402Rows) {
            x402Open.ok(!"SETTLING".equals(r.get("state")) && !"SETTLED".equals(r.get("state")), "x402 payment " + r.get("id") + " still " + r.get("state"));
        }
        x402Open.done();
        Map<String, Long> x402Outcomes = new java.util.TreeMap<>();
        load.x402Payments.forEach(p -> x402Outcomes.merge(p.acceptedInvoiceIds().isEmpty() ? p.finalStatus() + " " + p.finalCode() : "200", 1L, Long::sum));
        notes.add(load.x402Payments.size() + " x402 payments, " + x402Used + " used on chain; final answers to the client: " + x402Outcomes);

        // --- webhooks -----------------------------------------------------------------------------------
        List<Map<String, Object>> expectedEvents = new ArrayList<>();
        expectedEvents.addAll(query("mandate", "select id::text as id, type from outbox_event where partner_id = ? and created_at >= ? and topic = 'mandate-events'", PARTNER, subscribedAt));
        expectedEvents.addAll(query("invoice", "select id::text as id, type from outbox_event where partner_id = ? and created_at >= ? and topic = 'invoice-events'", PARTNER, subscribedAt));
        expectedEvents.removeIf(e -> !FaultIT.SUBSCRIBED.contains((String) e.get("type")));
        List<WebhookReceiver.Delivery> deliveries = receiver.deliveries();
        Map<String, List<WebhookReceiver.Delivery>> byPathAndId = new HashMap<>();
        for (WebhookReceiver.Delivery d : deliveries) {
            byPathAndId.computeIfAbsent(d.path() + "|" + d.webhookId(), k -> new ArrayList<>()).add(d);
        }
        Map<String, Integer> deliveryRows = new HashMap<>();
        // The dispatcher's view of each delivery, shown with a violation: its state, and the older pending
        // delivery of the same resource that holds it back (deliveries of one resource go in order).
        Map<String, String> deliveryState = new HashMap<>();
        for (Map<String, Object> r : query("webhook", "select s.url, d.event_id::text as eid, count(*) over (partition by s.url, d.event_id)::int as n,"
                + " 'status=' || d.status || ' attempts=' || d.attempts || ' next=' || coalesce(d.next_attempt_at::text, '-')"
                + " || ' lease=' || coalesce(d.lease_until::text, '-') || ' last=' || coalesce(d.last_response_code::text, '-')"
                + " || '/' || coalesce(d.last_error, '-') || coalesce(' held back by ' || (select p.event_id::text || ' (status=' || p.status"
                + " || ' attempts=' || p.attempts || ' next=' || p.next_attempt_at::text || ' last=' || coalesce(p.last_response_code::text, '-')"
                + " || '/' || coalesce(p.last_error, '-') || ')' from webhook_delivery p where p.subscription_id = d.subscription_id"
                + " and p.ordering_key = d.ordering_key and p.status = 'pending' and p.seq < d.seq order by p.seq limit 1), '') as state"
                + " from webhook_delivery d join webhook_subscription s on s.id = d.subscription_id where s.url = any(?)",
                (Object) paths.stream().map(receiver::url).toArray(String[]::new))) {
            String url = (String) r.get("url");
            String key = url.substring(url.indexOf("/hooks/")) + "|" + r.get("eid");
            deliveryRows.put(key, (Integer) r.get("n"));
            deliveryState.put(key, (String) r.get("state"));
        }
        Check reached = new Check("every webhook event reached each subscriber (2xx, same id on every attempt)");
        Check fannedOnce = new Check("one delivery row per event and subscription (fan-out once)");
        for (Map<String, Object> e : expectedEvents) {
            for (String path : paths) {
                String key = path + "|" + e.get("id");
                List<WebhookReceiver.Delivery> got = byPathAndId.getOrDefault(key, List.of());
                reached.ok(got.stream().anyMatch(d -> d.answered() / 100 == 2), path + " never got " + e.get("type") + " " + e.get("id") + " (" + got.size() + " attempts received; dispatcher: "
                        + deliveryState.getOrDefault(key, "no delivery row") + ")");
                fannedOnce.ok(deliveryRows.getOrDefault(key, 0) == 1, key + ": " + deliveryRows.getOrDefault(key, 0) + " delivery rows");
            }
        }
        reached.done();
        fannedOnce.done();
        Check notResent = new Check("no webhook sent again after a 2xx (except a dispatcher/PostgreSQL crash before recording it)");
        int explained = 0;
        for (List<WebhookReceiver.Delivery> got : byPathAndId.values()) {
            got.sort(java.util.Comparator.comparingLong(WebhookReceiver.Delivery::atMs));
            WebhookReceiver.Delivery firstOk = got.stream().filter(d -> d.answered() / 100 == 2).findFirst().orElse(null);
            if (firstOk == null) {
                continue;
            }
            for (WebhookReceiver.Delivery d : got) {
                if (d.atMs() <= firstOk.atMs() || d == firstOk) {
                    continue;
                }
                boolean crash = faults.injected.stream().anyMatch(f -> (f.target.equals("webhook-dispatcher") || f.target.equals("postgres"))
                        && f.startMs >= firstOk.atMs() - 1000 && f.startMs <= d.atMs());
                if (crash) {
                    explained++;
                } else {
                    notResent.ok(false, d.path() + " got " + d.webhookId() + " again (attempt " + d.attempt() + ") after a 2xx to attempt " + firstOk.attempt());
                }
            }
            notResent.checked++;
        }
        notResent.checked = Math.max(notResent.checked, byPathAndId.size());
        notResent.done();
        notes.add(explained + " webhook deliveries were sent again after a 2xx because the dispatcher or PostgreSQL was killed between the"
                + " receiver's 2xx and the dispatcher recording it (documented at-least-once; receivers dedupe on webhook-id)");

        // --- requests -----------------------------------------------------------------------------------
        List<Calls.Call> calls = load.calls.calls();
        Check hung = new Check("no request hung (no answer within 30 s)");
        Check fiveXx = new Check("no 5xx (or dropped connection) outside a dependency's outage (+15 s)");
        int inWindow = 0;
        for (Calls.Call c : calls) {
            hung.ok(!"timeout".equals(c.error()), c.op() + " at " + Instant.ofEpochMilli(c.startMs()) + " timed out");
            if (c.status() >= 500 || c.status() == 0) {
                if (faults.inWindow(c.startMs(), c.endMs())) {
                    inWindow++;
                    fiveXx.checked++;
                } else {
                    fiveXx.ok(false, c.op() + " at " + Instant.ofEpochMilli(c.startMs()) + " answered " + c.status() + " " + (c.error() == null ? "" : c.error()));
                }
            } else {
                fiveXx.checked++;
            }
        }
        hung.done();
        fiveXx.done();
        Check refused = new Check("the valid API key was never refused (401), also right after a restart");
        for (Calls.Call c : calls) {
            refused.ok(c.status() != 401, c.op() + " at " + Instant.ofEpochMilli(c.startMs()) + " answered 401 to the valid key");
        }
        refused.done();
        notes.add(inWindow + " requests met a 5xx or a dropped connection while a dependency was down (allowed; retried by the load)");
        return new Result(rows, notes, details.toString(), deliveries.size());
    }

    /**
     * Sweeping (issue 17), per EVM payment chain, after the drain: what the chain holds at the invoices'
     * deposit addresses ({@code balanceOf} each) plus what the sweep ledger counts as swept to the seller
     * wallet equals what the ledger counts as received, with no sweep in flight; the ledger's two sides are
     * the chain's own (the transfers into deposit addresses, and those from deposit addresses into the
     * seller wallet); every sweep ends CONFIRMED once, its amount the factory's {@code Swept} events of its
     * own transaction, and no sweep is on chain that the ledger lacks; the sweeps the watcher was killed in
     * the middle of are among them; and every deposit address the test paid ends swept empty.
     */
    private void sweeps(List<Map<String, Object>> invoices) throws Exception {
        Check balanced = new Check("per chain: USDC held at invoice addresses (balanceOf) + swept to the seller wallet = received (sweep ledger, no sweep in flight)");
        Check chainAgrees = new Check("per chain: the ledger's received and swept are the chain's (transfers into deposit addresses; from them into the seller wallet)");
        Check confirmedOnce = new Check("every sweep CONFIRMED once: its own Swept events, none FAILED or open, none on chain missing from the ledger");
        Check emptied = new Check("every deposit address the test paid was swept empty");
        Map<String, JsonNode> ledger = new HashMap<>();
        try {
            var http = java.net.http.HttpClient.newHttpClient();
            var r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(env.get("SETTLEMENT_WATCHER_URL") + "/admin/sweeps?limit=1"))
                    .header("x-admin-key", env.get("ADMIN_API_KEY")).timeout(Duration.ofSeconds(10)).GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                JSON.readTree(r.body()).path("data").path("chains").forEach(c -> ledger.put(c.path("chain").asText(), c));
            }
        } catch (java.io.IOException e) {
            // counted below as a chain without a ledger
        }
        Map<String, Set<String>> paidByChain = new HashMap<>();
        Map<String, Map<String, Object>> invoiceById = new HashMap<>();
        invoices.forEach(i -> invoiceById.put((String) i.get("id"), i));
        for (FaultLoad.Payment p : load.payments) {
            Map<String, Object> inv = invoiceById.get(p.invoiceId());
            if (inv != null) {
                paidByChain.computeIfAbsent(p.chain(), k -> new HashSet<>()).add(((String) inv.get("payment_address")).toLowerCase(Locale.ROOT));
            }
        }
        List<Map<String, Object>> batches = query("watcher", "select id::text as id, chain, state, tx_hash, swept_atomic::text as swept, attempts,"
                + " last_error from sweep_batch");
        StringBuilder sellerNote = new StringBuilder();
        for (String chain : sweptChains(env)) {
            EvmRpc rpc = new EvmRpc(faults.rpcUrl(chain));
            String usdc = FaultLoad.usdc(chain);
            String seller = env.get(prefix(chain) + "_PAYMENT_ADDRESS");
            String factory = env.get(prefix(chain) + "_DEPOSIT_FACTORY_ADDRESS");
            Set<String> deposits = new HashSet<>();
            strings("watcher", "select address from deposit_address where chain = ?", chain).forEach(a -> deposits.add(a.toLowerCase(Locale.ROOT)));
            BigInteger held = BigInteger.ZERO;
            Map<String, BigInteger> balances = new HashMap<>();
            for (String a : deposits) {
                BigInteger b = dev.agentpay.localstack.chain.UsdcInstaller.balanceOf(rpc, usdc, a);
                balances.put(a, b);
                held = held.add(b);
            }
            // the chain's side: USDC transfers into deposit addresses, and from them into the seller wallet
            BigInteger receivedOnChain = BigInteger.ZERO;
            List<String> list = new ArrayList<>(deposits);
            for (int i = 0; i < list.size(); i += 100) {
                List<String> words = list.subList(i, Math.min(list.size(), i + 100)).stream().map(a -> "0x" + EvmRpc.word(a)).toList();
                for (JsonNode log : logs(rpc, usdc, java.util.Arrays.asList(TRANSFER_TOPIC, null, words))) {
                    receivedOnChain = receivedOnChain.add(new BigInteger(log.path("data").asText().substring(2), 16));
                }
            }
            BigInteger sweptOnChain = BigInteger.ZERO;
            BigInteger intoSeller = BigInteger.ZERO;
            for (JsonNode log : logs(rpc, usdc, java.util.Arrays.asList(TRANSFER_TOPIC, null, "0x" + EvmRpc.word(seller)))) {
                BigInteger v = new BigInteger(log.path("data").asText().substring(2), 16);
                intoSeller = intoSeller.add(v);
                String from = "0x" + log.path("topics").path(1).asText().substring(26).toLowerCase(Locale.ROOT);
                if (deposits.contains(from)) {
                    sweptOnChain = sweptOnChain.add(v);
                }
            }
            JsonNode l = ledger.get(chain);
            if (l == null) {
                balanced.ok(false, chain + ": no sweep ledger (GET /admin/sweeps answered nothing for it)");
                chainAgrees.ok(false, chain + ": no sweep ledger");
            } else {
                BigInteger received = new BigInteger(l.path("receivedAtomic").asText());
                BigInteger swept = new BigInteger(l.path("sweptAtomic").asText());
                int open = l.path("openSweeps").asInt();
                balanced.ok(open == 0 && held.add(swept).equals(received), chain + ": held " + held + " + swept " + swept + " vs received " + received
                        + " (open sweeps " + open + ", failed " + l.path("failedSweeps").asInt() + ")");
                chainAgrees.ok(received.equals(receivedOnChain) && swept.equals(sweptOnChain), chain + ": ledger received " + received + " / swept " + swept
                        + ", chain: into deposit addresses " + receivedOnChain + ", from them into the seller wallet " + sweptOnChain);
            }
            BigInteger before = sellerBefore.getOrDefault(chain, BigInteger.ZERO);
            BigInteger sellerNow = dev.agentpay.localstack.chain.UsdcInstaller.balanceOf(rpc, usdc, seller);
            sellerNote.append(chain).append(" +").append(sellerNow.subtract(before)).append(" (all inflows ever ").append(intoSeller)
                    .append(", swept ever ").append(sweptOnChain).append("); ");
            for (String a : paidByChain.getOrDefault(chain, Set.of())) {
                BigInteger b = balances.getOrDefault(a, dev.agentpay.localstack.chain.UsdcInstaller.balanceOf(rpc, usdc, a));
                emptied.ok(b.signum() == 0, chain + " deposit address " + a + " still holds " + b + (deposits.contains(a) ? "" : " (not registered with the watcher)"));
            }
            // every sweep on chain (the factory's Swept events) is a CONFIRMED batch, with the amount the ledger counts
            Map<String, BigInteger> sweptByTx = new HashMap<>();
            for (JsonNode log : logs(rpc, factory, java.util.Arrays.asList(SWEPT_TOPIC))) {
                sweptByTx.merge(log.path("transactionHash").asText().toLowerCase(Locale.ROOT),
                        new BigInteger(log.path("data").asText().substring(2), 16), BigInteger::add);
            }
            Map<String, Integer> confirmedPerTx = new HashMap<>();
            for (Map<String, Object> b : batches) {
                if (!chain.equals(b.get("chain"))) {
                    continue;
                }
                String tx = ((String) b.get("tx_hash")).toLowerCase(Locale.ROOT);
                if ("CONFIRMED".equals(b.get("state"))) {
                    confirmedPerTx.merge(tx, 1, Integer::sum);
                    BigInteger onChain = sweptByTx.get(tx);
                    confirmedOnce.ok(onChain != null && onChain.equals(new BigInteger((String) b.get("swept"))), chain + " sweep " + b.get("id") + " (" + tx
                            + ") CONFIRMED with " + b.get("swept") + " but its transaction's Swept events total " + onChain);
                } else {
                    confirmedOnce.ok(false, chain + " sweep " + b.get("id") + " (" + tx + ") " + b.get("state") + " after " + b.get("attempts")
                            + " attempt(s): " + b.get("last_error"));
                }
            }
            for (String tx : sweptByTx.keySet()) {
                confirmedOnce.ok(confirmedPerTx.getOrDefault(tx, 0) == 1, chain + " sweep transaction " + tx + " on chain is CONFIRMED "
                        + confirmedPerTx.getOrDefault(tx, 0) + " times in the ledger");
            }
        }
        for (String id : faults.sweepsHit) {
            Map<String, Object> b = batches.stream().filter(x -> id.equals(x.get("id"))).findFirst().orElse(null);
            confirmedOnce.ok(b != null && "CONFIRMED".equals(b.get("state")), "sweep " + id + " (in flight at kill -9 settlement-watcher) ended "
                    + (b == null ? "missing" : b.get("state")));
        }
        balanced.done();
        chainAgrees.done();
        confirmedOnce.done();
        emptied.done();
        long confirmed = batches.stream().filter(b -> "CONFIRMED".equals(b.get("state"))).count();
        long reopened = batches.stream().filter(b -> String.valueOf(b.get("last_error")).startsWith("reorg:")).count();
        notes.add(confirmed + " sweeps confirmed (" + reopened + " reopened after a reorg took them out), " + faults.sweepsHit.size()
                + " in flight when settlement-watcher was killed " + faults.sweepsHit + "; seller wallet during the run: " + sellerNote);
    }

    private static List<JsonNode> logs(EvmRpc rpc, String address, List<Object> topics) {
        var filter = new LinkedHashMap<String, Object>();
        filter.put("address", address);
        filter.put("fromBlock", "0x0");
        filter.put("toBlock", "latest");
        filter.put("topics", topics);
        List<JsonNode> out = new ArrayList<>();
        rpc.call("eth_getLogs", filter).forEach(out::add);
        return out;
    }

    /** (mandate hash | state) -> tx hashes of its MandateAnchored logs. */
    private Map<String, List<String>> anchorLogs() {
        var filter = new LinkedHashMap<String, Object>();
        filter.put("address", env.get("ANCHOR_CONTRACT_ADDRESS"));
        filter.put("fromBlock", "0x0");
        filter.put("toBlock", "latest");
        // only MandateAnchored: the contract also logs SignerAdded / SignerRemoved (signer rotation, issue 31)
        // topic 0 = keccak256("MandateAnchored(bytes32,string,uint256,address)")
        filter.put("topics", List.of("0x0959946a7bae87f0718bad66b77c43b8342b7c41b73817f357ceca787139a40e"));
        JsonNode logs = new EvmRpc(env.get("ANCHOR_RPC_URL")).call("eth_getLogs", filter);
        Map<String, List<String>> out = new HashMap<>();
        for (JsonNode log : logs) {
            String hash = log.path("topics").path(1).asText().toLowerCase(Locale.ROOT);
            String data = log.path("data").asText().substring(2);
            int offset = new BigInteger(data.substring(0, 64), 16).intValue() * 2;
            int len = new BigInteger(data.substring(offset, offset + 64), 16).intValue();
            String state = new String(java.util.HexFormat.of().parseHex(data.substring(offset + 64, offset + 64 + len * 2)),
                    java.nio.charset.StandardCharsets.UTF_8);
            out.computeIfAbsent(hash + "|" + state, k -> new ArrayList<>()).add(log.path("transactionHash").asText());
        }
        return out;
    }

    /**
     * Budgets and charges (issue 28), from the two services' own tables: every budget equals the sum of its charges'
     * states exactly (reserved = open charges, spent = settled ones, their sum within the amount), no charge is
     * without its invoice and no invoice of a charge without its charge, each charge's state follows its invoice's,
     * and no race accepted more charges than the budget holds.
     */
    private void budgets() throws Exception {
        List<Map<String, Object>> budgets = query("mandate", "select b.mandate_id, b.amount_atomic, b.reserved_atomic,"
                + " b.spent_atomic from mandate_budget b join mandate m on m.id = b.mandate_id where m.partner_id = ?"
                + " and m.created_at >= ?", PARTNER, start);
        List<Map<String, Object>> charges = query("mandate", "select id, mandate_id, amount_atomic, status, invoice_id"
                + " from mandate_charge where partner_id = ? and created_at >= ?", PARTNER, start);
        List<Map<String, Object>> chargeInvoices = query("invoice", "select id::text as id, mandate_id, charge_id, status"
                + " from invoice where charge_id is not null and partner_id = ? and created_at >= ?", PARTNER, start);
        Map<String, Map<String, Object>> invoiceById = new HashMap<>();
        chargeInvoices.forEach(i -> invoiceById.put((String) i.get("id"), i));
        Map<String, Map<String, Object>> chargeById = new HashMap<>();
        charges.forEach(c -> chargeById.put((String) c.get("id"), c));

        Check sums = new Check("every budget equals the sum of its charges' states (reserved, spent, within the amount)");
        for (Map<String, Object> b : budgets) {
            String mandate = (String) b.get("mandate_id");
            BigInteger open = BigInteger.ZERO;
            BigInteger settled = BigInteger.ZERO;
            for (Map<String, Object> c : charges) {
                if (mandate.equals(c.get("mandate_id"))) {
                    BigInteger x = ((java.math.BigDecimal) c.get("amount_atomic")).toBigIntegerExact();
                    String st = (String) c.get("status");
                    if (st.equals("reserving") || st.equals("pending")) {
                        open = open.add(x);
                    } else if (st.equals("settled")) {
                        settled = settled.add(x);
                    }
                }
            }
            BigInteger amount = ((java.math.BigDecimal) b.get("amount_atomic")).toBigIntegerExact();
            BigInteger reserved = ((java.math.BigDecimal) b.get("reserved_atomic")).toBigIntegerExact();
            BigInteger spent = ((java.math.BigDecimal) b.get("spent_atomic")).toBigIntegerExact();
            sums.ok(reserved.equals(open) && spent.equals(settled) && reserved.add(spent).compareTo(amount) <= 0,
                    mandate + ": reserved " + reserved + " spent " + spent + " of " + amount + "; charges open " + open
                            + " settled " + settled);
        }
        sums.done();
        Check chargeHasInvoice = new Check("every charge has its invoice (none left reserving), of its mandate, in the matching state");
        for (Map<String, Object> c : charges) {
            Map<String, Object> inv = c.get("invoice_id") == null ? null : invoiceById.get((String) c.get("invoice_id"));
            String expected = switch ((String) c.get("status")) {
                case "pending" -> "PENDING";
                case "settled" -> "SETTLED";
                case "released" -> "EXPIRED";
                default -> "(none: reserving)";
            };
            chargeHasInvoice.ok(inv != null && c.get("id").equals(inv.get("charge_id")) && c.get("mandate_id").equals(inv.get("mandate_id"))
                            && expected.equals(inv.get("status")),
                    "charge " + c.get("id") + " " + c.get("status") + ": invoice " + (inv == null ? c.get("invoice_id") + " missing"
                            : inv.get("id") + " " + inv.get("status")));
        }
        chargeHasInvoice.done();
        Check invoiceHasCharge = new Check("every invoice of a charge has its charge");
        for (Map<String, Object> inv : chargeInvoices) {
            Map<String, Object> c = chargeById.get((String) inv.get("charge_id"));
            invoiceHasCharge.ok(c != null && inv.get("id").equals(c.get("invoice_id")),
                    "invoice " + inv.get("id") + " of charge " + inv.get("charge_id") + ": " + (c == null ? "no such charge"
                            : "the charge names invoice " + c.get("invoice_id")));
        }
        invoiceHasCharge.done();
        Check raced = new Check("no race accepted more charges than a budget holds (4 of 0.25 in 1.00)");
        raced.ok(load.chargesOverBudget.get() == 0, load.chargesOverBudget.get() + " charges accepted over a budget");
        raced.done();
        notes.add(budgets.size() + " budgets, " + charges.size() + " charges, " + chargeInvoices.size() + " charge invoices checked");
    }

    /**
     * Escrow money checks (issue 30), per mandate the load put in escrow: the service's ledger (the mandate's escrow view)
     * equals the contract's totals; every Released log on chain is one charge of the mandate paid from escrow (its ref is
     * keccak-256 of that charge id, no ref twice) and every such charge was released once; no release was mined after the
     * freeze; every escrow charge's invoice is SETTLED from escrow; and no accepted charge went unpaid by the escrow.
     */
    private void escrows() throws Exception {
        EvmRpc rpc = new EvmRpc(env.get("CHAIN_BASE_RPC_URL"));
        String contract = env.get("CHAIN_BASE_ESCROW_ADDRESS");
        List<JsonNode> logs = logs(rpc, contract, List.<Object>of(dev.agentpay.commons.chains.escrow.MandateEscrowAbi.topics()));
        Check ledger = new Check("every escrow's ledger in the service equals the contract's totals");
        Check releases = new Check("every release on chain is one escrow charge, each paid once");
        Check frozen = new Check("no release after a freeze");
        Check settled = new Check("every escrow charge's invoice is SETTLED from escrow");
        for (String mandate : load.escrowMandates) {
            JsonNode view = JSON.readTree(load.calls.retrying("check.mandate", "GET", "/v1/mandates/" + mandate, null, Map.of(),
                    Duration.ofSeconds(30)).body()).path("data").path("escrow");
            if (view.isMissingNode() || view.isNull()) {
                ledger.ok(false, mandate + ": no escrow view");
                continue;
            }
            String id = view.path("escrow_id").asText();
            var t = dev.agentpay.commons.chains.escrow.MandateEscrowAbi.decodeTotals(rpc.ethCall(contract,
                    dev.agentpay.commons.chains.escrow.MandateEscrowAbi.totals(id)));
            ledger.ok(EscrowIT.atomic(view.path("funded").asText()).equals(t.funded())
                            && EscrowIT.atomic(view.path("released").asText()).equals(t.released())
                            && EscrowIT.atomic(view.path("withdrawn").asText()).equals(t.withdrawn())
                            && EscrowIT.atomic(view.path("refunded").asText()).equals(t.refunded())
                            && EscrowIT.atomic(view.path("held").asText()).equals(t.held()) && view.path("state").asText().equals(t.state().value()),
                    mandate + ": service " + view + " vs chain " + t);
            Map<String, String> chargeByRef = new HashMap<>();
            List<Map<String, Object>> charges = query("mandate", "select c.id, c.invoice_id from mandate_charge c join mandate_escrow_command e"
                    + " on e.charge_id = c.id where c.mandate_id = ? and e.type = 'escrow.release'", mandate);
            charges.forEach(c -> chargeByRef.put(dev.agentpay.commons.chains.escrow.MandateEscrowAbi.ref((String) c.get("id")), (String) c.get("id")));
            Map<String, Integer> released = new HashMap<>();
            long frozenAt = Long.MAX_VALUE;
            List<long[]> releasePositions = new ArrayList<>();
            for (JsonNode log : logs) {
                List<String> topics = new ArrayList<>();
                log.path("topics").forEach(x -> topics.add(x.asText()));
                var ev = dev.agentpay.commons.chains.escrow.MandateEscrowAbi.decode(topics, log.path("data").asText()).orElse(null);
                if (ev == null || !ev.escrowId().equalsIgnoreCase(id)) {
                    continue;
                }
                long pos = Long.decode(log.path("blockNumber").asText()) * 100_000 + Long.decode(log.path("logIndex").asText());
                if (ev.kind() == dev.agentpay.commons.chains.escrow.MandateEscrowAbi.Kind.RELEASED) {
                    released.merge(ev.ref().toLowerCase(Locale.ROOT), 1, Integer::sum);
                    releasePositions.add(new long[] {pos});
                } else if (ev.kind() == dev.agentpay.commons.chains.escrow.MandateEscrowAbi.Kind.FROZEN) {
                    frozenAt = Math.min(frozenAt, pos);
                }
            }
            for (Map.Entry<String, Integer> r : released.entrySet()) {
                releases.ok(chargeByRef.containsKey(r.getKey()) && r.getValue() == 1,
                        mandate + ": release ref " + r.getKey() + " x" + r.getValue() + (chargeByRef.containsKey(r.getKey()) ? "" : ", of no charge"));
            }
            for (String ref : chargeByRef.keySet()) {
                releases.ok(released.containsKey(ref), mandate + ": charge " + chargeByRef.get(ref) + " was never released");
            }
            for (long[] p : releasePositions) {
                frozen.ok(p[0] < frozenAt, mandate + ": a release mined after the freeze");
            }
            for (Map<String, Object> c : charges) {
                List<String> st = strings("invoice", "select status || ' ' || coalesce(settlement_source, '') from invoice where id::text = ?",
                        c.get("invoice_id"));
                settled.ok(st.size() == 1 && st.get(0).equals("SETTLED escrow"), "charge " + c.get("id") + ": invoice " + c.get("invoice_id") + " " + st);
            }
        }
        ledger.done();
        releases.done();
        frozen.done();
        settled.done();
        Check hit = new Check("every escrow command in flight at a kill ended done (once: the refs and totals above)");
        for (String command : faults.escrowCommandsHit) {
            List<String> st = strings("watcher", "select state from escrow_command where command_id = ?", command);
            List<String> ms = strings("mandate", "select status from mandate_escrow_command where command_id::text = ?", command);
            hit.ok(st.equals(List.of("DONE")) && ms.equals(List.of("done")), "command " + command + ": watcher " + st + ", mandate-service " + ms);
        }
        hit.done();
        Check fromEscrow = new Check("every charge accepted under a funded escrow was paid from it");
        fromEscrow.ok(load.escrowChargesNotFromEscrow.get() == 0, load.escrowChargesNotFromEscrow.get() + " charges answered paid_from invoice");
        fromEscrow.done();
        notes.add(load.escrowMandates.size() + " escrows on base (" + load.escrowResolved.size() + " disputed and resolved) checked against the"
                + " contract; escrow commands in flight when their service was killed: " + faults.escrowCommandsHit);
    }

    private List<Map<String, Object>> query(String database, String sql, Object... args) throws Exception {
        try (Connection c = db.connect(database); PreparedStatement st = c.prepareStatement(sql)) {
            c.setReadOnly(true);
            for (int i = 0; i < args.length; i++) {
                st.setObject(i + 1, args[i]);
            }
            List<Map<String, Object>> out = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    Map<String, Object> row = new HashMap<>();
                    for (int i = 1; i <= n; i++) {
                        row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                    }
                    out.add(row);
                }
            }
            return out;
        }
    }

    private List<String> strings(String database, String sql, Object... args) throws Exception {
        return db.strings(database, sql, args);
    }
}
