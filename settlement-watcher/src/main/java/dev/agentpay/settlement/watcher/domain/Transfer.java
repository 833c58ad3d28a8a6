package dev.agentpay.settlement.watcher.domain;

import dev.agentpay.commons.events.ChainTransferEvent;
import java.math.BigInteger;

/** A token transfer to a seller wallet as read from a chain. */
public record Transfer(String chain, String txHash, int index, long block, String blockHash, String from, String to,
        BigInteger amount, String token, String memo) {

    public String id() {
        return ChainTransferEvent.transferId(chain, txHash, index);
    }
}
