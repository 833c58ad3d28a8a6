package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.mandates.domain.MandateState;
import dev.agentpay.mandate.mandates.service.MandateService;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What discovery-service tells clients about mandates is what this service does: the published state
 * machine ({@code reference/mandate-state-machine.json}) against {@link MandateState#TRANSITIONS} (the
 * table {@code MandateService} refuses to leave), and the manifest's {@code proto_version} against the
 * label this service writes on mandates.
 */
class DiscoveryContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DISCOVERY = RepoPaths.root().resolve("discovery-service/src/main/resources/discovery");

    @Test
    void theStateMachineDocumentIsTheServicesTransitionTable() throws Exception {
        JsonNode doc = JSON.readTree(DISCOVERY.resolve("reference/mandate-state-machine.json").toFile());
        assertThat(texts(doc.get("states"))).containsExactlyElementsOf(
                Arrays.stream(MandateState.values()).map(MandateState::wire).toList());
        assertThat(texts(doc.get("terminal"))).containsExactlyInAnyOrderElementsOf(
                Arrays.stream(MandateState.values()).filter(MandateState::terminal).map(MandateState::wire).toList());
        assertThat(doc.get("initial").asText()).isEqualTo(MandateState.PROPOSED.wire());

        Map<MandateState, Set<MandateState>> documented = new TreeMap<>();
        for (MandateState s : MandateState.values()) {
            documented.put(s, EnumSet.noneOf(MandateState.class));
        }
        int creations = 0;
        for (JsonNode t : doc.get("transitions")) {
            MandateState to = MandateState.fromWire(t.get("to").asText());
            assertThat(t.get("event").asText()).as("event of %s", t).isEqualTo(to.eventType());
            assertThat(t.has("via")).as("one edge per row, no shortcuts: %s", t).isFalse();
            if (t.get("from").isNull()) {
                assertThat(to).isEqualTo(MandateState.PROPOSED);
                assertThat(t.get("anchored").asBoolean()).as("the creation row is never anchored").isFalse();
                creations++;
                continue;
            }
            assertThat(t.get("anchored").asBoolean()).as("every transition after creation is anchored: %s", t).isTrue();
            List<String> froms = t.get("from").isArray() ? texts(t.get("from")) : List.of(t.get("from").asText());
            for (String from : froms) {
                assertThat(documented.get(MandateState.fromWire(from)).add(to)).as("%s -> %s documented twice", from, to).isTrue();
            }
        }
        assertThat(creations).isEqualTo(1);
        assertThat(documented).isEqualTo(new TreeMap<>(MandateState.TRANSITIONS));
        assertThat(texts(doc.at("/anchoring/anchor_status").isObject() ? fieldNames(doc.at("/anchoring/anchor_status")) : null))
                .containsExactly(dev.agentpay.mandate.mandates.domain.Transition.ANCHOR_NONE,
                        dev.agentpay.mandate.mandates.domain.Transition.ANCHOR_PENDING,
                        dev.agentpay.mandate.mandates.domain.Transition.ANCHOR_PARTIAL,
                        dev.agentpay.mandate.mandates.domain.Transition.ANCHOR_ANCHORED);
        assertThat(doc.at("/anchoring/event/type").asText()).isEqualTo(dev.agentpay.commons.events.MandateEvent.ANCHORED);
        assertThat(doc.toString()).doesNotContain("two anchor transactions");
        // budgets (issue 28): the charge states and events the code writes
        assertThat(texts(doc.at("/budget/charge_states"))).containsExactly(dev.agentpay.mandate.budget.domain.Charge.RESERVING,
                dev.agentpay.mandate.budget.domain.Charge.PENDING, dev.agentpay.mandate.budget.domain.Charge.SETTLED,
                dev.agentpay.mandate.budget.domain.Charge.RELEASED);
        List<String> budgetEvents = new ArrayList<>();
        doc.at("/budget/events").forEach(e -> budgetEvents.add(e.get("type").asText()));
        assertThat(budgetEvents).containsExactly(dev.agentpay.mandate.budget.service.BudgetService.CHARGE_CREATED,
                dev.agentpay.mandate.budget.service.BudgetService.CHARGE_SETTLED,
                dev.agentpay.mandate.budget.service.BudgetService.CHARGE_RELEASED,
                dev.agentpay.mandate.budget.service.BudgetService.BUDGET_EXHAUSTED);
        List<String> codes = new ArrayList<>();
        doc.get("errors").forEach(e -> codes.add(e.get("code").asText()));
        assertThat(codes).contains("mandate_expired", "invalid_transition", "mandate_not_found", "invalid_signature");
    }

    @Test
    void theManifestsProtoVersionIsTheLabelMandatesCarry() throws Exception {
        JsonNode service = JSON.readTree(DISCOVERY.resolve("catalog.json").toFile()).get("service");
        String written = MandateConfig.class.getMethod("protoVersion").getAnnotation(WithDefault.class).value();
        assertThat(service.get("proto_version").asText()).isEqualTo(written).isEqualTo("0.1");
        assertThat(texts(service.get("proto_versions"))).containsExactly(written, MandateService.PROTO_V02);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode fieldNames(JsonNode object) {
        var a = JSON.createArrayNode();
        object.fieldNames().forEachRemaining(a::add);
        return a;
    }
}
