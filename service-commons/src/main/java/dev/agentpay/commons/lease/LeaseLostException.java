package dev.agentpay.commons.lease;

/**
 * A fenced transaction found that its fencing token is no longer the lease's: the lease moved to another
 * instance (this one was frozen, cut off or too slow to renew). The transaction is rolled back: the
 * effect it carried does not happen.
 */
public class LeaseLostException extends IllegalStateException {

    private final String lease;
    private final long token;

    public LeaseLostException(String lease, long token) {
        super("lease " + lease + " no longer held with fencing token " + token + ": the work moved to another instance");
        this.lease = lease;
        this.token = token;
    }

    public String lease() {
        return lease;
    }

    public long token() {
        return token;
    }
}
