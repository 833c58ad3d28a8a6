// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @notice The part of ERC-20 and EIP-3009 (USDC) the escrow needs.
interface IUsdc {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter,
        uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external;
}

/// @title MandateEscrow
/// @notice Holds a mandate's budget in USDC between its proposer (the funder) and its counterparty.
///         One escrow per (mandate hash, funder): its id is escrowId(mandateHash, funder), so nobody but
///         the funder can open (or block) the escrow a funder is asked to fund.
///
///         Money leaves an escrow only along these paths, and to nobody but its two parties:
///         - release(id, amount, ref)              operator -> counterparty (each ref once, ever)
///         - withdraw(id)                          counterparty -> counterparty (what has vested linearly
///                                                 between streamStart and streamEnd, less what was paid)
///         - resolve(id, toCounterparty, toProposer) operator, only while frozen, the two summing to held
///         - refund(id)                            funder -> funder, after expiresAt + grace, no operator:
///                                                 everything held that has not vested
///         The operator can neither change the terms, nor name another recipient, nor act after
///         expiresAt + grace. Invariant: held = funded - released - withdrawn - refunded >= 0, where a
///         resolve counts its toCounterparty as released and its toProposer as refunded.
/// @dev No storage beyond the escrows and the used refs; token, operator and grace are immutables.
contract MandateEscrow {
    enum State { None, Active, Frozen, Resolved, Refunded }

    struct Escrow {
        bytes32 mandateHash;
        address funder;
        uint64 streamStart;
        address counterparty;
        uint64 streamEnd;
        uint64 expiresAt;
        uint64 frozenAt;
        State state;
        uint128 funded;
        uint128 released;
        uint128 withdrawn;
        uint128 refunded;
    }

    /// @notice The escrow was funded (by transferFrom or by an EIP-3009 authorization).
    event Funded(bytes32 indexed id, bytes32 indexed mandateHash, address indexed funder, address counterparty,
        uint256 amount, uint64 streamStart, uint64 streamEnd, uint64 expiresAt);
    /// @notice The operator paid the counterparty `amount` for `ref` (e.g. keccak256 of a charge id).
    event Released(bytes32 indexed id, bytes32 indexed mandateHash, bytes32 indexed ref, address to, uint256 amount);
    /// @notice The counterparty withdrew vested money.
    event Withdrawn(bytes32 indexed id, bytes32 indexed mandateHash, address indexed to, uint256 amount);
    /// @notice The operator froze the escrow (a dispute): no release, no withdraw until resolved.
    event Frozen(bytes32 indexed id, bytes32 indexed mandateHash);
    /// @notice The operator split what was held between the two parties.
    event Resolved(bytes32 indexed id, bytes32 indexed mandateHash, uint256 toCounterparty, uint256 toProposer);
    /// @notice The funder took back what had not vested, after expiresAt + grace.
    event Refunded(bytes32 indexed id, bytes32 indexed mandateHash, address indexed to, uint256 amount);

    error ZeroAddress();
    error NotOperator(address caller);
    error NotFunder(address caller);
    error NotCounterparty(address caller);
    error AlreadyFunded(bytes32 id);
    error BadTerms();
    error BadAmount();
    error WrongState(bytes32 id, State state);
    error OperatorWindowClosed(bytes32 id);
    error NotYetRefundable(bytes32 id, uint256 refundableAt);
    error RefUsed(bytes32 ref);
    error ExceedsHeld(uint256 amount, uint256 held);
    error SplitMismatch(uint256 sum, uint256 held);
    error NothingToPay(bytes32 id);
    error TransferFailed();

    /// @notice The token held (USDC of the chain).
    IUsdc public immutable token;
    /// @notice The only account that may release, freeze and resolve.
    address public immutable operator;
    /// @notice Seconds after expiresAt during which the operator may still act; after it, refund opens.
    uint64 public immutable grace;

    mapping(bytes32 => Escrow) private _escrows;
    /// @notice Release refs already used (one payment per ref, across every escrow).
    mapping(bytes32 => bool) public refUsed;

    constructor(address token_, address operator_, uint64 grace_) {
        if (token_ == address(0) || operator_ == address(0)) revert ZeroAddress();
        token = IUsdc(token_);
        operator = operator_;
        grace = grace_;
    }

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        _;
    }

    // ---------------------------------------------------------------- ids and terms

    /// @notice The escrow of `funder` for the mandate `mandateHash`.
    function escrowId(bytes32 mandateHash, address funder) public pure returns (bytes32) {
        return keccak256(abi.encode(mandateHash, funder));
    }

    /// @notice The EIP-3009 nonce a funder signs: it commits the authorization to these terms.
    function termsNonce(bytes32 mandateHash, address counterparty, uint256 amount, uint64 streamStart,
        uint64 streamEnd, uint64 expiresAt) public pure returns (bytes32) {
        return keccak256(abi.encode(mandateHash, counterparty, amount, streamStart, streamEnd, expiresAt));
    }

    // ---------------------------------------------------------------- funding

    /// @notice Funds the caller's escrow of `mandateHash` by transferFrom (approve this contract first).
    ///         streamStart = streamEnd = 0: no stream (money leaves by release, resolve or refund only).
    function fund(bytes32 mandateHash, address counterparty, uint256 amount, uint64 streamStart, uint64 streamEnd,
        uint64 expiresAt) external returns (bytes32 id) {
        id = _open(mandateHash, msg.sender, counterparty, amount, streamStart, streamEnd, expiresAt);
        if (!token.transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
    }

    /// @notice The terms of an escrow as fundWithAuthorization takes them (a static tuple: encoded exactly as the six
    ///         values one after another, as fund takes them).
    struct Terms {
        bytes32 mandateHash;
        address counterparty;
        uint256 amount;
        uint64 streamStart;
        uint64 streamEnd;
        uint64 expiresAt;
    }

    /// @notice Funds `from`'s escrow with its EIP-3009 ReceiveWithAuthorization(from, to = this, value = t.amount,
    ///         validAfter, validBefore, nonce = termsNonce(t...)) signature; anyone may submit it (the signature fixes
    ///         the terms, so the submitter can change nothing).
    function fundWithAuthorization(Terms calldata t, address from, uint256 validAfter, uint256 validBefore, uint8 v,
        bytes32 r, bytes32 s) external returns (bytes32 id) {
        id = _open(t.mandateHash, from, t.counterparty, t.amount, t.streamStart, t.streamEnd, t.expiresAt);
        // abi.encode of a static struct is its fields' words: the same bytes as termsNonce's
        token.receiveWithAuthorization(from, address(this), t.amount, validAfter, validBefore, keccak256(abi.encode(t)), v, r, s);
    }

    function _open(bytes32 mandateHash, address funder, address counterparty, uint256 amount, uint64 streamStart,
        uint64 streamEnd, uint64 expiresAt) private returns (bytes32 id) {
        if (funder == address(0) || counterparty == address(0)) revert ZeroAddress();
        if (amount == 0 || amount > type(uint128).max) revert BadAmount();
        if (expiresAt <= block.timestamp) revert BadTerms();
        bool streamed = streamStart != 0 || streamEnd != 0;
        if (streamed && (streamStart == 0 || streamStart >= streamEnd || streamEnd > expiresAt)) revert BadTerms();
        id = escrowId(mandateHash, funder);
        Escrow storage e = _escrows[id];
        if (e.state != State.None) revert AlreadyFunded(id);
        e.mandateHash = mandateHash;
        e.funder = funder;
        e.counterparty = counterparty;
        e.streamStart = streamStart;
        e.streamEnd = streamEnd;
        e.expiresAt = expiresAt;
        e.state = State.Active;
        e.funded = uint128(amount);
        emit Funded(id, mandateHash, funder, counterparty, amount, streamStart, streamEnd, expiresAt);
    }

    // ---------------------------------------------------------------- operator

    /// @notice Pays the counterparty `amount` for `ref` (reverts when ref was used: a retried command never pays twice).
    function release(bytes32 id, uint256 amount, bytes32 ref) external onlyOperator {
        Escrow storage e = _active(id);
        if (ref == bytes32(0)) revert BadTerms();
        if (refUsed[ref]) revert RefUsed(ref);
        if (amount == 0) revert BadAmount();
        uint256 h = _held(e);
        if (amount > h) revert ExceedsHeld(amount, h);
        refUsed[ref] = true;
        e.released += uint128(amount);
        emit Released(id, e.mandateHash, ref, e.counterparty, amount);
        _send(e.counterparty, amount);
    }

    /// @notice Freezes an active escrow (a dispute): vesting stops, release and withdraw are refused.
    function freeze(bytes32 id) external onlyOperator {
        Escrow storage e = _active(id);
        e.state = State.Frozen;
        e.frozenAt = uint64(block.timestamp);
        emit Frozen(id, e.mandateHash);
    }

    /// @notice Splits a frozen escrow's whole held amount between the counterparty and the funder.
    function resolve(bytes32 id, uint256 toCounterparty, uint256 toProposer) external onlyOperator {
        Escrow storage e = _escrows[id];
        if (e.state != State.Frozen) revert WrongState(id, e.state);
        _operatorWindow(id, e);
        uint256 h = _held(e);
        if (toCounterparty + toProposer != h) revert SplitMismatch(toCounterparty + toProposer, h);
        e.state = State.Resolved;
        e.released += uint128(toCounterparty);
        e.refunded += uint128(toProposer);
        emit Resolved(id, e.mandateHash, toCounterparty, toProposer);
        if (toCounterparty > 0) _send(e.counterparty, toCounterparty);
        if (toProposer > 0) _send(e.funder, toProposer);
    }

    // ---------------------------------------------------------------- parties

    /// @notice The counterparty takes what has vested and was not yet paid. While frozen: only after
    ///         expiresAt + grace (the operator never resolved), and only what had vested at the freeze.
    function withdraw(bytes32 id) external returns (uint256 amount) {
        Escrow storage e = _escrows[id];
        if (msg.sender != e.counterparty || e.state == State.None) revert NotCounterparty(msg.sender);
        bool afterGrace = block.timestamp >= uint256(e.expiresAt) + grace;
        if (!(e.state == State.Active || (afterGrace && (e.state == State.Frozen || e.state == State.Refunded)))) {
            revert WrongState(id, e.state);
        }
        amount = _owed(e);
        if (amount == 0) revert NothingToPay(id);
        e.withdrawn += uint128(amount);
        emit Withdrawn(id, e.mandateHash, e.counterparty, amount);
        _send(e.counterparty, amount);
    }

    /// @notice The funder takes back everything held that has not vested, after expiresAt + grace; no operator
    ///         needed. Once only; what had vested stays for the counterparty to withdraw.
    function refund(bytes32 id) external returns (uint256 amount) {
        Escrow storage e = _escrows[id];
        if (msg.sender != e.funder || e.state == State.None) revert NotFunder(msg.sender);
        if (e.state != State.Active && e.state != State.Frozen) revert WrongState(id, e.state);
        uint256 at = uint256(e.expiresAt) + grace;
        if (block.timestamp < at) revert NotYetRefundable(id, at);
        amount = _held(e) - _owed(e);
        if (amount == 0) revert NothingToPay(id);
        if (e.frozenAt == 0) e.frozenAt = uint64(block.timestamp); // vesting ends here (it ended at streamEnd anyway)
        e.state = State.Refunded;
        e.refunded += uint128(amount);
        emit Refunded(id, e.mandateHash, e.funder, amount);
        _send(e.funder, amount);
    }

    // ---------------------------------------------------------------- views

    /// @notice The escrow's terms and totals.
    function escrows(bytes32 id) external view returns (Escrow memory) {
        return _escrows[id];
    }

    /// @notice funded, released, withdrawn, refunded, held (= funded - released - withdrawn - refunded), state.
    function totals(bytes32 id) external view returns (uint256 funded, uint256 released, uint256 withdrawn,
        uint256 refunded, uint256 held, State state) {
        Escrow storage e = _escrows[id];
        return (e.funded, e.released, e.withdrawn, e.refunded, _held(e), e.state);
    }

    /// @notice What has vested by now (by the freeze or the refund when there was one); 0 without a stream.
    function vested(bytes32 id) external view returns (uint256) {
        return _vested(_escrows[id]);
    }

    /// @notice What the counterparty could withdraw now if withdrawing were allowed in the escrow's state.
    function withdrawable(bytes32 id) external view returns (uint256) {
        return _owed(_escrows[id]);
    }

    // ---------------------------------------------------------------- internals

    function _active(bytes32 id) private view returns (Escrow storage e) {
        e = _escrows[id];
        if (e.state != State.Active) revert WrongState(id, e.state);
        _operatorWindow(id, e);
    }

    function _operatorWindow(bytes32 id, Escrow storage e) private view {
        if (block.timestamp >= uint256(e.expiresAt) + grace) revert OperatorWindowClosed(id);
    }

    function _held(Escrow storage e) private view returns (uint256) {
        return uint256(e.funded) - e.released - e.withdrawn - e.refunded;
    }

    /// Linear vesting of the funded amount between streamStart and streamEnd, stopped at frozenAt when set.
    function _vested(Escrow storage e) private view returns (uint256) {
        if (e.streamEnd == 0) return 0;
        uint256 t = e.frozenAt != 0 ? e.frozenAt : block.timestamp;
        if (t <= e.streamStart) return 0;
        if (t >= e.streamEnd) return e.funded;
        return uint256(e.funded) * (t - e.streamStart) / (e.streamEnd - e.streamStart);
    }

    /// Vested and not yet paid to the counterparty (releases count as paid ahead of vesting), at most held.
    function _owed(Escrow storage e) private view returns (uint256) {
        uint256 v = _vested(e);
        uint256 paid = uint256(e.released) + e.withdrawn;
        if (v <= paid) return 0;
        uint256 owed = v - paid;
        uint256 h = _held(e);
        return owed < h ? owed : h;
    }

    function _send(address to, uint256 amount) private {
        if (!token.transfer(to, amount)) revert TransferFailed();
    }
}
