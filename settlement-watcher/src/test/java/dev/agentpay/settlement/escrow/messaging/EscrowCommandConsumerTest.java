package dev.agentpay.settlement.escrow.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.commons.events.EscrowCommand;
import dev.agentpay.commons.events.EventHeader;
import java.math.BigInteger;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Commands become the calldata they send; a command that cannot be executed as written is refused (dead-lettered). */
class EscrowCommandConsumerTest {

    static final String ID = "0x" + "11".repeat(32);
    static final String MANDATE = "0x" + "22".repeat(32);
    static final String REF = "0x" + "33".repeat(32);

    static EscrowCommand cmd(String type, String commandId, String escrowId, String amount, String ref, String toC, String toP) {
        return new EscrowCommand(EventHeader.of(type, MANDATE, null, Instant.now(), 1), commandId, "Base", escrowId, MANDATE, amount,
                ref, "chg_1", toC, toP);
    }

    @Test
    void eachTypeBecomesItsCall() {
        var release = EscrowCommandConsumer.command(cmd(EscrowCommand.RELEASE, "c1", ID, "5", REF, null, null));
        assertThat(release.calldata()).isEqualTo(MandateEscrowAbi.release(ID, BigInteger.valueOf(5), REF));
        assertThat(release.chain()).isEqualTo("base");
        assertThat(EscrowCommandConsumer.command(cmd(EscrowCommand.FREEZE, "c2", ID, null, null, null, null)).calldata())
                .isEqualTo(MandateEscrowAbi.freeze(ID));
        assertThat(EscrowCommandConsumer.command(cmd(EscrowCommand.RESOLVE, "c3", ID, null, null, "0", "7")).calldata())
                .isEqualTo(MandateEscrowAbi.resolve(ID, BigInteger.ZERO, BigInteger.valueOf(7)));
    }

    @Test
    void malformedCommandsAreRefused() {
        assertThatThrownBy(() -> EscrowCommandConsumer.command(cmd("escrow.pay", "c", ID, "5", REF, null, null)))
                .hasMessageContaining("unknown command type");
        assertThatThrownBy(() -> EscrowCommandConsumer.command(cmd(EscrowCommand.RELEASE, "", ID, "5", REF, null, null)))
                .hasMessageContaining("commandId");
        assertThatThrownBy(() -> EscrowCommandConsumer.command(cmd(EscrowCommand.RELEASE, "c", "0x12", "5", REF, null, null)))
                .hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> EscrowCommandConsumer.command(cmd(EscrowCommand.RELEASE, "c", ID, "0", REF, null, null)))
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> EscrowCommandConsumer.command(cmd(EscrowCommand.RELEASE, "c", ID, "-1", REF, null, null)))
                .hasMessageContaining("out of range");
        assertThatThrownBy(() -> EscrowCommandConsumer.command(cmd(EscrowCommand.RELEASE, "c", ID, "1", null, null, null)))
                .hasMessageContaining("ref missing");
        assertThatThrownBy(() -> EscrowCommandConsumer.command(cmd(EscrowCommand.RESOLVE, "c", ID, null, null, "1", null)))
                .hasMessageContaining("toProposer");
    }
}
