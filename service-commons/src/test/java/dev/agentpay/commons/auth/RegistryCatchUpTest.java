package dev.agentpay.commons.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryCatchUpTest {

    @Test
    void notCaughtUpUntilEveryPartitionReachedItsEndAtJoin() {
        RegistryCatchUp c = new RegistryCatchUp();
        c.processed(0, 0);
        assertThat(c.caughtUp()).as("end offsets not known yet").isFalse();
        c.target(Map.of(0, 3L, 1, 0L, 2, 2L));
        assertThat(c.caughtUp()).isFalse();
        c.processed(0, 2);
        assertThat(c.caughtUp()).as("partition 2 still behind").isFalse();
        c.processed(2, 1);
        assertThat(c.caughtUp()).isTrue();
        c.target(Map.of(0, 100L));
        assertThat(c.caughtUp()).as("latched; a later target is ignored").isTrue();
    }

    @Test
    void anEmptyTopicIsCaughtUpAtOnce() {
        RegistryCatchUp c = new RegistryCatchUp();
        c.target(Map.of(0, 0L));
        assertThat(c.caughtUp()).isTrue();
    }

    @Test
    void recordsReadBeforeTheTargetCount() {
        RegistryCatchUp c = new RegistryCatchUp();
        c.processed(0, 4);
        c.target(Map.of(0, 5L));
        assertThat(c.caughtUp()).isTrue();
    }
}
