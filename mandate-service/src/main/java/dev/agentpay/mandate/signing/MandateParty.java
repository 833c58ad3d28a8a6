package dev.agentpay.mandate.signing;

/**
 * One party of a mandate written in the parties form ({@code parties: [{id, role}]}, 2 to 16 entries):
 * what every party signs about every other. Order matters: it is the signing order and part of the signed
 * bytes (canonical JSON and EIP-712 alike).
 */
public record MandateParty(String id, String role) {
}
