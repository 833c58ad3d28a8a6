package dev.agentpay.commons.chains;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;

/**
 * Runs web3j's elliptic-curve code once at start, on the main thread, instead of in the first request or job that
 * signs, derives an address or recovers a signer. The first use of web3j's {@code Keys} and {@code Sign} classes
 * builds a BouncyCastle provider, which loads every algorithm it knows, and sets up the secp256k1 parameters: a class
 * initialisation that took 2-9 s on a busy machine and ran on a Vert.x event loop, blocking every request and job on
 * that loop. The rolling restart showed it in each replacement (bench/FAULTS.md, "Fifth run"): invoice-service's loop
 * blocked 9.1 s in the first invoice's deposit address (an x402 payment on that loop answered 502 after the gateway's
 * 20 s), anchor-service's signer and settlement-watcher's escrow and sweep clients likewise when they took their lease.
 * Off with {@code platform.crypto.warm-up=false} (webhook-dispatcher, which never signs).
 */
@ApplicationScoped
public class CryptoWarmUp {

    /** secp256k1 private key 1, whose address everyone knows: the warm-up's result can be checked. */
    static final String KEY_ONE = "0x0000000000000000000000000000000000000000000000000000000000000001";

    private static final Logger LOG = Logger.getLogger(CryptoWarmUp.class);

    /** Whether the service warms web3j's curve code at start. */
    @ConfigMapping(prefix = "platform.crypto")
    public interface Config {
        @WithDefault("true")
        boolean warmUp();
    }

    @Inject
    Config config;

    /** Early among the start observers, before the consumers, loops and HTTP routes get their first work. */
    void onStart(@Observes @Priority(1) StartupEvent ev) {
        if (config.warmUp()) {
            long t0 = System.nanoTime();
            warmUp();
            LOG.debugf("web3j curve code warmed in %d ms", (System.nanoTime() - t0) / 1_000_000);
        }
    }

    /**
     * Derives the checksummed address of {@link #KEY_ONE}: {@code Sign}'s curve, {@code Keys} (whose class set-up
     * builds the BouncyCastle provider) and Keccak, the work every later signature, derivation and recovery starts with.
     */
    static String warmUp() {
        return Keys.toChecksumAddress(Credentials.create(KEY_ONE).getAddress());
    }
}
