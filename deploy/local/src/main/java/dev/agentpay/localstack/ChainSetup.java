package dev.agentpay.localstack;

import dev.agentpay.localstack.chain.DepositFactoryInstaller;
import dev.agentpay.localstack.chain.EscrowInstaller;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Installs what the local chains need, idempotently (anvil keeps its state across restarts): the
 * anchor contract on the anchor chain, USDC at each chain's canonical address, the deposit factory
 * (invoice payment addresses) and the mandate escrow on each EVM chain, and a funded
 * development payer. Deployments come from anvil's unlocked account #3 so that the anchor signer's
 * (account #0) nonces belong to anchor-service alone.
 */
final class ChainSetup {

    /** anvil default account #0: the anchor signer (a public development key, never for real funds). */
    static final String ANCHOR_SIGNER_KEY = AnvilNode.DEV_KEY_0;
    /**
     * anvil default account #9: the next anchor signer, which a signer rotation moves to (anchor-service README,
     * "Signer rotation"); its nonces, like account #0's, belong to anchor-service alone.
     */
    static final String ANCHOR_NEXT_SIGNER_KEY = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";
    /** The address of {@link #ANCHOR_NEXT_SIGNER_KEY}. */
    static final String ANCHOR_NEXT_SIGNER_ADDRESS = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";
    /**
     * anvil default account #8: the anchor signer on base, the second anchor chain (anchor-service README "Several
     * anchor chains"); its nonces on base belong to the base anchor deployment alone.
     */
    static final String ANCHOR_BASE_SIGNER_KEY = "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97";
    /** anvil default account #1: the development payer. */
    static final String PAYER_KEY = AnvilNode.DEV_KEY_1;
    /** anvil default account #2: pays gas for the facilitator's settlements. */
    static final String FACILITATOR_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";

    /**
     * anvil default account #4: settlement-watcher's sweeper, paying the gas of sweeps on every EVM chain
     * (a sweep can only pay the factory's treasury, so this key holds gas and nothing else).
     */
    static final String SWEEPER_KEY = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a";

    /**
     * anvil default account #6: settlement-watcher's escrow operator on every EVM chain (releases, freezes and
     * resolves mandate escrows; MandateEscrow pays only an escrow's two parties, so this key holds gas only).
     */
    static final String ESCROW_OPERATOR_KEY = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e";

    /** 1,000,000 USDC in atomic units for the payer on every chain. */
    static final BigInteger PAYER_USDC = BigInteger.valueOf(1_000_000L * 1_000_000L);

    private final Path local;
    private final Map<String, String> secrets;

    ChainSetup(Path local, Map<String, String> secrets) {
        this.local = local;
        this.secrets = secrets;
    }

    void install(Map<String, AnvilNode> chains, Map<String, String> env) throws IOException {
        AnvilNode anchor = chains.get("anchor");
        EvmRpc anchorRpc = new EvmRpc(anchor.rpcUrl());
        var accounts = anchorRpc.call("eth_accounts");
        String signer = accounts.get(0).asText();
        String deployer = accounts.get(3).asText();
        String payer = accounts.get(1).asText();
        String escrowOperator = accounts.get(6).asText();

        env.put("ANCHOR_RPC_URL", anchor.rpcUrl());
        env.put("ANCHOR_CHAIN_ID", Long.toString(anchor.chainId()));
        env.put("ANCHOR_CONTRACT_ADDRESS", anchorContract(anchorRpc, deployer, signer, "anchor-contract.address", "anchor",
                LocalStack.ANCHOR_CHAIN_ID));
        env.put("ANCHOR_SIGNER_ADDRESS", signer);
        env.put("ANCHOR_NEXT_SIGNER_ADDRESS", ANCHOR_NEXT_SIGNER_ADDRESS.toLowerCase(java.util.Locale.ROOT));
        env.put("ANCHOR_EXPLORER_URL", "https://sepolia.basescan.org");

        // The second anchor chain: base, its own MandateAnchor (signer anvil #8) and anchor-service deployment. Every
        // transition is anchored on both (ANCHOR_CHAINS, primary first); verifiers get one RPC per chain.
        AnvilNode base = chains.get("base");
        EvmRpc baseRpc = new EvmRpc(base.rpcUrl());
        String baseSigner = baseRpc.call("eth_accounts").get(8).asText();
        env.put("ANCHOR_BASE_RPC_URL", base.rpcUrl());
        env.put("ANCHOR_BASE_CHAIN_ID", Long.toString(base.chainId()));
        env.put("ANCHOR_BASE_CONTRACT_ADDRESS", anchorContract(baseRpc, deployer, baseSigner, "anchor-base-contract.address",
                "base", base.chainId()));
        env.put("ANCHOR_BASE_SIGNER_ADDRESS", baseSigner);
        env.put("ANCHOR_BASE_EXPLORER_URL", "https://basescan.org");
        env.put("ANCHOR_CHAINS", anchor.chainId() + "," + base.chainId());
        env.put("ANCHOR_RPC_URLS", anchor.chainId() + "=" + anchor.rpcUrl() + "," + base.chainId() + "=" + base.rpcUrl());

        for (UsdcInstaller.Canonical c : UsdcInstaller.EVM_CHAINS) {
            AnvilNode node = chains.get(c.chain());
            EvmRpc rpc = new EvmRpc(node.rpcUrl());
            UsdcInstaller.install(rpc, c);
            // Top the payer up to its allowance only when it runs low, so restarts keep balances.
            BigInteger balance = UsdcInstaller.balanceOf(rpc, c.address(), payer);
            if (balance.compareTo(PAYER_USDC.divide(BigInteger.TWO)) < 0) {
                UsdcInstaller.mint(rpc, c.address(), payer, PAYER_USDC.subtract(balance));
            }
            String prefix = LocalStack.envPrefix(c);
            env.put(prefix + "_RPC_URL", node.rpcUrl());
            env.put(prefix + "_CHAIN_ID", Long.toString(c.chainId()));
            env.put(prefix + "_USDC_ADDRESS", c.address());
            String seller = secrets.get(prefix + "_PAYMENT_ADDRESS");
            env.put(prefix + "_PAYMENT_ADDRESS", seller);
            // Every invoice's own payment address is a CREATE2 address of this factory (treasury: the seller).
            env.put(prefix + "_DEPOSIT_FACTORY_ADDRESS", DepositFactoryInstaller.ensure(rpc, deployer, seller,
                    local.resolve("data/" + c.chain() + "-deposit-factory.address")));
            // Mandate budgets held between the two parties (issue 30): the chain's USDC, operated by settlement-watcher.
            env.put(prefix + "_ESCROW_ADDRESS", EscrowInstaller.ensure(rpc, deployer, c.address(), escrowOperator,
                    EscrowInstaller.LOCAL_GRACE_SECONDS, local.resolve("data/" + c.chain() + "-escrow.address")));
            // Local chains mine a block a second and never reorganize on their own: one confirmation
            // and a fast poll keep detection well under the 1.5 s target (production defaults are deeper).
            env.put(prefix + "_CONFIRMATIONS", "1");
            env.put(prefix + "_POLL_INTERVAL", "PT0.2S");
        }
        env.put("DEV_PAYER_PRIVATE_KEY", PAYER_KEY);
        env.put("DEV_PAYER_ADDRESS", payer);
    }

    /** Deploys an anchor contract once per chain; its address is remembered beside the chain state. */
    private String anchorContract(EvmRpc rpc, String deployer, String signer, String file, String chain, long chainId)
            throws IOException {
        Path remembered = local.resolve("data/" + file);
        if (Files.exists(remembered)) {
            String address = Files.readString(remembered).trim();
            if (rpc.getCode(address).length() > 2) {
                return address;
            }
            // The anchor-service database holds transactions sent to this contract: a new contract at a
            // new address would leave them pointing at nothing.
            throw new LocalStack.StateLost(chain, chainId,
                    "the anchor contract " + address + " (remembered in " + remembered + ") has no code on the chain");
        }
        Path bin = RepoPaths.root().resolve("anchor-service/src/main/resources/contracts/MandateAnchor.bin");
        String code = Files.readString(bin).trim().replaceFirst("^0x", "");
        String address = rpc.deploy(deployer, "0x" + code + EvmRpc.word(signer));
        Files.writeString(remembered, address);
        return address;
    }
}
