package dev.agentpay.discovery.verification.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.verification.client.AnchorChainClient;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;

/**
 * The checks of {@code service_verify_mandate}, the same as {@code tools/verify-mandate} runs, done here on
 * the proof document mandate-service publishes: the mandate hash recomputed from the signed content (web3j's
 * generic EIP-712 encoder over the proof's own typed data, or SHA-256 of the canonical bytes), each wallet
 * signature recovered and compared with its party, each anchor looked up on the RPC of its own chain ({@link AnchorChainClient}). Steps and
 * check names: {@code /disco/reference/mandate-proof.md}.
 */
@ApplicationScoped
public class MandateVerifier {

    static final String ANCHORED_TOPIC = "0x" + HexFormat.of().formatHex(
            Hash.sha3("MandateAnchored(bytes32,string,uint256,address)".getBytes(StandardCharsets.US_ASCII)));
    static final String SIGNER_ADDED_TOPIC = "0x" + HexFormat.of().formatHex(
            Hash.sha3("SignerAdded(address,address)".getBytes(StandardCharsets.US_ASCII)));
    static final String SIGNER_REMOVED_TOPIC = "0x" + HexFormat.of().formatHex(
            Hash.sha3("SignerRemoved(address,address)".getBytes(StandardCharsets.US_ASCII)));
    /** Selector of {@code signer()}: the one immutable signer of contracts deployed before rotation. */
    static final String LEGACY_SIGNER_CALL = Hash.sha3String("signer()").substring(0, 10);
    private static final Pattern CAIP10 = Pattern.compile("eip155:([1-9][0-9]{0,17}):(0x[0-9a-fA-F]{40})");

    @Inject
    ObjectMapper mapper;

    @Inject
    AnchorChainClient chain;

    /** One check: {@code ok} true (passed), false (failed) or null (not applicable / not checkable here). */
    record Check(String name, Boolean ok, String detail) {
    }

    /**
     * How a hash scheme's signed content names the two parties of a two-party mandate and the mandate's id, and how a
     * check's detail speaks of that content: EIP-712 typed data and the SHA-256 canonical bytes carry the same facts
     * under different names.
     */
    private record SignedContent(String what, String names, String idLabel, String proposerField, String counterpartyField) {
        static final SignedContent TYPED_DATA = new SignedContent("typed data", "typed data names", "typed data id",
                "proposer", "counterparty");
        static final SignedContent CANONICAL = new SignedContent("canonical bytes", "canonical bytes name", "canonical id",
                "proposer_agent_id", "counterparty_agent_id");
    }

    /** Every check ran and passed. */
    public static final String VERIFIED = "verified";
    /** Nothing failed, but something could not be checked: an HMAC signature, a party not signed yet, no anchor, a pending anchor. */
    public static final String UNVERIFIABLE = "unverifiable";
    /** At least one check failed. */
    public static final String FAILED = "failed";

    /**
     * The verdict of a list of checks: {@code failed} when any failed, else {@code unverifiable} when any could not
     * be checked (ok null), else {@code verified}. An empty list verifies nothing: {@code unverifiable}.
     */
    static String verdict(List<Check> checks) {
        if (checks.stream().anyMatch(c -> Boolean.FALSE.equals(c.ok()))) {
            return FAILED;
        }
        if (checks.isEmpty() || checks.stream().anyMatch(c -> c.ok() == null)) {
            return UNVERIFIABLE;
        }
        return VERIFIED;
    }

    public Uni<ObjectNode> verify(JsonNode proof) {
        List<Check> checks = new ArrayList<>();
        checks.add(new Check("format", "agentpay-mandate-proof/1".equals(proof.path("format").asText(null)),
                "format " + proof.path("format")));
        String hash = proof.path("mandate_hash").asText("");
        String terms = proof.path("terms").asText("");
        Map<String, String> parties = new TreeMap<>();
        proof.path("signatures").forEach(s -> parties.put(s.path("role").asText(), s.path("party").asText(null)));
        byte[] digest = null;
        String scheme = proof.path("hash_scheme").asText("");
        if (scheme.equals("eip712")) {
            JsonNode td = proof.path("typed_data");
            JsonNode msg = td.path("message");
            try {
                digest = new StructuredDataEncoder(mapper.writeValueAsString(td)).hashStructuredData();
                String d = hex(digest);
                checks.add(new Check("mandate_hash", d.equals(hash), "EIP-712 digest " + d + ", proof says " + hash));
            } catch (Exception | Error e) {
                checks.add(new Check("mandate_hash", false, "typed data does not hash: " + e.getMessage()));
            }
            String th = hex(Hash.sha3(terms.getBytes(StandardCharsets.UTF_8)));
            checks.add(new Check("terms_hash", th.equals(msg.path("termsHash").asText()),
                    "keccak256(terms) " + th + ", typed data says " + msg.path("termsHash").asText()));
            checks.addAll(partiesAndId(msg, SignedContent.TYPED_DATA, proof, parties));
        } else if (scheme.equals("sha256-canonical")) {
            String canonicalText = proof.path("canonical").asText("");
            String d = sha256(canonicalText);
            checks.add(new Check("mandate_hash", d.equals(hash), "SHA-256 of the canonical bytes " + d + ", proof says " + hash));
            JsonNode c;
            try {
                c = mapper.readTree(canonicalText);
            } catch (Exception e) {
                c = mapper.createObjectNode();
            }
            checks.add(new Check("terms", c.path("terms").equals(readOrNull(terms)), "the canonical bytes carry the proof's terms"));
            checks.addAll(partiesAndId(c, SignedContent.CANONICAL, proof, parties));
        } else {
            checks.add(new Check("hash_scheme", false, "unknown hash scheme " + proof.path("hash_scheme")));
        }
        for (JsonNode s : proof.path("signatures")) {
            checks.add(signature(s, digest));
        }
        List<String> pending = new ArrayList<>();
        // a transition stays pending until anchored on every configured chain (partially_anchored: some chain has it)
        proof.path("pending_anchors").forEach(p -> pending.add(p.path("to_state").asText() + " ("
                + p.path("anchor_status").asText("pending") + ")"));
        if (!pending.isEmpty()) {
            checks.add(new Check("pending_anchors", null, pending.size() + " transition(s) wait for anchor receipts (proof anchor_status "
                    + proof.path("anchor_status").asText() + "): " + String.join(", ", pending)));
        }
        List<JsonNode> anchors = new ArrayList<>();
        proof.path("anchors").forEach(anchors::add);
        // one entry per (transition, chain): names stay anchor:<state> while every anchor is on one chain, and carry
        // the chain (anchor:<state>@<chainId>) when the anchors span several
        List<Long> chainIds = anchors.stream().map(a -> a.path("chain_id").asLong()).distinct().toList();
        java.util.function.Function<JsonNode, String> at = a -> chainIds.size() > 1 ? "@" + a.path("chain_id").asLong() : "";
        long transitions = anchors.stream().map(a -> a.path("to_state").asText()).distinct().count();
        checks.add(new Check("anchors", anchors.isEmpty() ? null : true, anchors.size() + " anchor(s) of " + transitions
                + " transition(s)" + (chainIds.isEmpty() ? "" : " on chain(s) " + chainIds.stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(", ")))));
        if (anchors.isEmpty()) {
            return Uni.createFrom().item(report(proof, checks));
        }
        if (!chain.configured()) {
            anchors.forEach(a -> checks.add(new Check("anchor:" + a.path("to_state").asText() + at.apply(a), null,
                    "not checked: this deployment has no anchor RPC configured")));
            return Uni.createFrom().item(report(proof, checks));
        }
        Map<String, Uni<List<SignerEvent>>> histories = new java.util.HashMap<>();
        return chain.chains().flatMap(served -> Multi.createFrom().iterable(anchors)
                .onItem().transformToUniAndConcatenate(a -> anchor(a, at.apply(a), served, hash, histories))
                .collect().asList())
                .map(found -> {
                    found.forEach(checks::addAll);
                    if (scheme.equals("eip712")) {
                        checks.add(domainCheck(proof.path("typed_data").path("domain"), anchors));
                    }
                    return report(proof, checks);
                });
    }

    /**
     * The signed domain names the primary anchor chain and its contract: the anchors on that chain must be at that
     * contract; anchors on other chains have their own contract and are not judged here. No anchor on the domain's
     * chain yet: not checked (null).
     */
    static Check domainCheck(JsonNode dom, List<JsonNode> anchors) {
        String vc = dom.path("verifyingContract").asText("").toLowerCase(Locale.ROOT);
        long dc = dom.path("chainId").asLong();
        List<JsonNode> onDomain = anchors.stream().filter(a -> a.path("chain_id").asLong() == dc).toList();
        List<String> wrong = onDomain.stream().filter(a -> !a.path("contract").asText("").toLowerCase(Locale.ROOT).equals(vc))
                .map(a -> a.path("contract").asText() + " (" + a.path("to_state").asText() + ")").toList();
        String named = "the signed domain names chain " + dom.path("chainId").asText() + " contract " + vc + ": ";
        if (onDomain.isEmpty()) {
            return new Check("domain", null, named + "no anchor on that chain yet");
        }
        return new Check("domain", wrong.isEmpty(), named + (wrong.isEmpty() ? "its " + onDomain.size()
                + " anchor(s) on that chain are at that contract" : "anchored there at " + String.join(", ", wrong)));
    }

    /**
     * The parties the signed content names (every party of the parties form, else the proposer and the counterparty)
     * and its mandate id, each against what the proof itself says.
     */
    private List<Check> partiesAndId(JsonNode signed, SignedContent form, JsonNode proof, Map<String, String> parties) {
        JsonNode proposer = signed.path(form.proposerField());
        JsonNode counterparty = signed.path(form.counterpartyField());
        Check partiesCheck = signed.has("parties") ? partiesCheck(signed.path("parties"), proof.path("signatures"), form.what())
                : new Check("parties", proposer.asText("").equals(parties.get("proposer"))
                && counterparty.asText("").equals(parties.get("counterparty")),
                form.names() + " " + proposer.asText() + " / " + counterparty.asText());
        Check idCheck = new Check("mandate_id", signed.path("id").asText("").equals(proof.path("mandate_id").asText()),
                form.idLabel() + " " + signed.path("id").asText());
        return List.of(partiesCheck, idCheck);
    }

    /**
     * A mandate of the parties form: the signed content lists every party ({@code [{id, role}]}, in signing order),
     * and the proof's signatures must name the same parties, with the same roles, in the same order.
     */
    static Check partiesCheck(JsonNode signed, JsonNode signatures, String where) {
        List<String> named = new ArrayList<>();
        signed.forEach(p -> named.add(p.path("role").asText() + "=" + p.path("id").asText()));
        List<String> signing = new ArrayList<>();
        signatures.forEach(s -> signing.add(s.path("role").asText() + "=" + s.path("party").asText()));
        return new Check("parties", !named.isEmpty() && named.equals(signing), where + " name " + named.size()
                + " parties " + String.join(", ", named) + (named.equals(signing) ? "" : "; the signatures name " + signing));
    }

    private Check signature(JsonNode s, byte[] digest) {
        String role = s.path("role").asText();
        String name = "signature:" + role;
        String sig = s.path("signature").asText(null);
        String scheme = s.path("scheme").asText("");
        if (sig == null) {
            return new Check(name, null, role + " has not signed");
        }
        if (scheme.equals("hmac") || scheme.equals("hmac-role")) {
            return new Check(name, null, scheme + ": a shared-secret HMAC; only the partner and the service can check it");
        }
        if (!scheme.equals("eip712")) {
            return new Check(name, false, "unknown scheme " + scheme);
        }
        Matcher m = CAIP10.matcher(s.path("party").asText(""));
        if (!m.matches()) {
            return new Check(name, false, "party " + s.path("party").asText() + " is not a CAIP-10 eip155 account");
        }
        if (digest == null || !sig.matches("0x[0-9a-fA-F]{130}")) {
            return new Check(name, false, "cannot recover: no digest or a malformed signature");
        }
        byte[] raw = HexFormat.of().parseHex(sig.substring(2).toLowerCase(Locale.ROOT));
        byte v = raw[64] < 27 ? (byte) (raw[64] + 27) : raw[64];
        try {
            BigInteger key = Sign.signedMessageHashToKey(digest, new Sign.SignatureData(v,
                    java.util.Arrays.copyOfRange(raw, 0, 32), java.util.Arrays.copyOfRange(raw, 32, 64)));
            String recovered = "0x" + Keys.getAddress(key);
            String party = m.group(2).toLowerCase(Locale.ROOT);
            return new Check(name, recovered.equals(party), "recovers " + recovered + "; the " + role + " is " + party);
        } catch (Exception e) {
            return new Check(name, false, "does not recover: " + e.getMessage());
        }
    }

    /** The anchor's check, and when its log is found the check of its sender against the contract's signer history. */
    private Uni<List<Check>> anchor(JsonNode a, String at, java.util.Set<Long> served, String mandateHash,
            Map<String, Uni<List<SignerEvent>>> histories) {
        return logCheck(a, at, served, mandateHash).flatMap(found -> {
            if (found.sender() == null) {
                return Uni.createFrom().item(List.of(found.check()));
            }
            return signerCheck(a, at, found.sender(), histories).map(s -> List.of(found.check(), s));
        });
    }

    /** One SignerAdded ({@code added}) or SignerRemoved log of the anchor contract. */
    record SignerEvent(String signer, String by, boolean added, long block, long logIndex) {
    }

    /** An anchor's check and, when the log checked out as a MandateAnchored event, its sender. */
    private record Found(Check check, String sender) {
        Found(Check check) {
            this(check, null);
        }
    }

    /**
     * Was {@code sender} a signer of the anchor's contract at the anchor's log? The contract's SignerAdded and
     * SignerRemoved logs up to then, replayed in order (in the anchor's block only those before its log); a
     * contract without them (deployed before rotation) is asked for its one {@code signer()}. A proof that names
     * the signer must name the sender. Check {@code anchor_signer:<state>} (reference {@code anchor-signers.md}), with
     * {@code @<chainId>} when the proof's anchors span chains; the history is read once per chain and contract.
     */
    private Uni<Check> signerCheck(JsonNode a, String at, String sender, Map<String, Uni<List<SignerEvent>>> histories) {
        String name = "anchor_signer:" + a.path("to_state").asText() + at;
        long chainId = a.path("chain_id").asLong();
        String who = sender.toLowerCase(Locale.ROOT);
        String named = a.path("signer").asText(null);
        if (named != null && !named.equalsIgnoreCase(who)) {
            return Uni.createFrom().item(new Check(name, false, "the proof names signer " + named + " but the log was sent by " + who));
        }
        String contract = a.path("contract").asText("").toLowerCase(Locale.ROOT);
        Uni<List<SignerEvent>> history = histories.computeIfAbsent(chainId + ":" + contract, k -> chain.logs(chainId, contract,
                List.of(SIGNER_ADDED_TOPIC, SIGNER_REMOVED_TOPIC), "latest").map(MandateVerifier::signerEvents).memoize().indefinitely());
        long block = a.path("block_number").asLong();
        long logIndex = a.path("log_index").asLong();
        return history.flatMap(h -> {
            if (h.isEmpty()) {
                return chain.ethCall(chainId, contract, LEGACY_SIGNER_CALL).map(ret -> {
                    String only = ret.length() >= 66 ? "0x" + ret.substring(ret.length() - 40).toLowerCase(Locale.ROOT) : "(none)";
                    return only.equals(who) ? new Check(name, true, who + " is the contract's only signer (a contract without rotation)")
                            : new Check(name, false, who + " is not the contract's signer " + only);
                });
            }
            return Uni.createFrom().item(authorisedAt(name, h, who, block, logIndex));
        }).onFailure().recoverWithItem(e -> new Check(name, null, "the contract's signer history could not be read: " + e.getMessage()));
    }

    static Check authorisedAt(String name, List<SignerEvent> history, String who, long block, long logIndex) {
        SignerEvent last = null;
        for (SignerEvent e : history) {
            if (e.block() > block || (e.block() == block && e.logIndex() > logIndex)) {
                break;
            }
            if (e.signer().equals(who)) {
                last = e;
            }
        }
        if (last == null) {
            return new Check(name, false, who + " was never authorised by the contract before this anchor (block " + block + ")");
        }
        if (!last.added()) {
            return new Check(name, false, who + " was removed as a signer in block " + last.block() + " (by " + last.by()
                    + "), before this anchor");
        }
        String later = history.stream().filter(e -> e.signer().equals(who) && !e.added() && e.block() >= block).findFirst()
                .map(e -> ", removed later in block " + e.block()).orElse("");
        return new Check(name, true, who + " was a signer: added in block " + last.block() + " by " + last.by() + later);
    }

    /** The signer history of {@code eth_getLogs}' answer, in chain order. */
    static List<SignerEvent> signerEvents(JsonNode logs) {
        List<SignerEvent> out = new ArrayList<>();
        for (JsonNode l : logs) {
            JsonNode t = l.path("topics");
            if (t.size() < 3) {
                continue;
            }
            out.add(new SignerEvent(topicAddress(t.get(1).asText()), topicAddress(t.get(2).asText()),
                    SIGNER_ADDED_TOPIC.equalsIgnoreCase(t.get(0).asText()), Long.decode(l.path("blockNumber").asText("0x0")),
                    Long.decode(l.path("logIndex").asText("0x0"))));
        }
        out.sort(java.util.Comparator.comparingLong(SignerEvent::block).thenComparingLong(SignerEvent::logIndex));
        return out;
    }

    private static String topicAddress(String topic) {
        return "0x" + topic.substring(topic.length() - 40).toLowerCase(Locale.ROOT);
    }

    /** The {@code sender} of a MandateAnchored log's data (string offset, ts, sender): the third word. */
    static String abiSender(String dataHex) {
        String d = dataHex.startsWith("0x") ? dataHex.substring(2) : dataHex;
        return d.length() < 192 ? null : "0x" + d.substring(128 + 24, 192).toLowerCase(Locale.ROOT);
    }

    private Uni<Found> logCheck(JsonNode a, String at, java.util.Set<Long> served, String mandateHash) {
        String state = a.path("to_state").asText();
        String name = "anchor:" + state + at;
        long chainId = a.path("chain_id").asLong();
        if (!served.contains(chainId)) {
            return Uni.createFrom().item(new Found(new Check(name, null, "not checked: no anchor RPC for chain " + chainId
                    + " (this deployment has one for chain(s) " + served.stream().sorted().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(", ")) + ")")));
        }
        String tx = a.path("tx_hash").asText("");
        if (!tx.matches("0x[0-9a-fA-F]{64}")) {
            return Uni.createFrom().item(new Found(new Check(name, false, "malformed transaction hash " + tx)));
        }
        return chain.receipt(chainId, tx).map(found -> {
            if (found.isEmpty()) {
                return new Found(new Check(name, false, "transaction " + tx + " not found on chain " + chainId));
            }
            JsonNode r = found.get();
            if (!"0x1".equals(r.path("status").asText())) {
                return new Found(new Check(name, false, "transaction " + tx + " reverted"));
            }
            long block = Long.decode(r.path("blockNumber").asText("0x0"));
            if (block != a.path("block_number").asLong()) {
                return new Found(new Check(name, false, "transaction is in block " + block + ", proof says " + a.path("block_number").asText()));
            }
            JsonNode log = null;
            for (JsonNode l : r.path("logs")) {
                if (Long.decode(l.path("logIndex").asText("0x0")) == a.path("log_index").asLong(-1)) {
                    log = l;
                }
            }
            if (log == null) {
                return new Found(new Check(name, false, "no log with index " + a.path("log_index").asText() + " in " + tx));
            }
            if (!log.path("address").asText("").equalsIgnoreCase(a.path("contract").asText(""))) {
                return new Found(new Check(name, false, "log was emitted by " + log.path("address").asText() + ", proof says "
                        + a.path("contract").asText()));
            }
            JsonNode topics = log.path("topics");
            if (topics.size() != 2 || !ANCHORED_TOPIC.equalsIgnoreCase(topics.get(0).asText())) {
                return new Found(new Check(name, false, "log " + a.path("log_index").asText() + " is not a MandateAnchored event"));
            }
            String loggedState = abiString(log.path("data").asText(""));
            boolean ok = topics.get(1).asText().equalsIgnoreCase(mandateHash) && state.equals(loggedState);
            String sender = abiSender(log.path("data").asText(""));
            return new Found(new Check(name, ok, "chain " + chainId + " block " + block + " log " + a.path("log_index").asText() + ": MandateAnchored("
                    + topics.get(1).asText() + ", \"" + loggedState + "\") by " + sender), ok ? sender : null);
        });
    }

    private ObjectNode report(JsonNode proof, List<Check> checks) {
        ObjectNode out = mapper.createObjectNode();
        out.put("mandate_id", proof.path("mandate_id").asText(null));
        out.put("state", proof.path("state").asText(null));
        out.put("mandate_hash", proof.path("mandate_hash").asText(null));
        String verdict = verdict(checks);
        out.put("verdict", verdict);
        // kept for clients of the first version: exactly verdict == "verified"
        out.put("verified", VERIFIED.equals(verdict));
        ArrayNode list = out.putArray("checks");
        for (Check c : checks) {
            ObjectNode o = list.addObject().put("name", c.name());
            if (c.ok() == null) {
                o.putNull("ok");
            } else {
                o.put("ok", c.ok());
            }
            o.put("detail", c.detail());
        }
        List<String> failed = checks.stream().filter(c -> Boolean.FALSE.equals(c.ok())).map(Check::name).toList();
        out.putArray("failed").addAll(failed.stream().map(mapper.getNodeFactory()::textNode).toList());
        out.putArray("unverifiable").addAll(checks.stream().filter(c -> c.ok() == null).map(Check::name)
                .map(mapper.getNodeFactory()::textNode).toList());
        return out;
    }

    /** The first ABI-encoded dynamic {@code string} of a log's data (MandateAnchored: state, ts, sender). */
    static String abiString(String dataHex) {
        try {
            byte[] d = HexFormat.of().parseHex(dataHex.startsWith("0x") ? dataHex.substring(2) : dataHex);
            int offset = new BigInteger(1, java.util.Arrays.copyOfRange(d, 0, 32)).intValueExact();
            int len = new BigInteger(1, java.util.Arrays.copyOfRange(d, offset, offset + 32)).intValueExact();
            return new String(d, offset + 32, len, StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
            return "";
        }
    }

    private JsonNode readOrNull(String json) {
        try {
            return mapper.readTree(json);
        } catch (Exception e) {
            return null;
        }
    }

    private static String sha256(String text) {
        try {
            return hex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] b) {
        return "0x" + HexFormat.of().formatHex(b);
    }
}
