// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title MandateAnchor
/// @notice Anchors mandate state transitions as logs. The contract keeps no storage: each anchored
///         transition is one MandateAnchored event, found again through its transaction receipt.
/// @dev mandateHash is indexed so that every anchor of one mandate can be found with eth_getLogs
///      (topic filter) without scanning; state, ts and sender stay in the log data.
///      Only an authorised signer may anchor. The set of signers is the one piece of storage: it starts
///      with the constructor's signer and changes only by a signer's own call (addSigner / removeSigner),
///      each change a SignerAdded / SignerRemoved log. Those logs are the public record of which signer
///      was valid when: a verifier replays them up to an anchor's log to judge its sender (rotation
///      with an overlap: the next signer is added by the current one, the old one removed by the next).
contract MandateAnchor {
    /// @notice One mandate transition: the mandate's canonical hash, the state it entered, the block
    ///         timestamp and the anchoring account.
    event MandateAnchored(bytes32 indexed mandateHash, string state, uint256 ts, address sender);

    /// @notice A signer was authorised (by the constructor's deployer for the first one, else by a signer).
    event SignerAdded(address indexed signer, address indexed by);
    /// @notice A signer's authorisation ended (by another signer).
    event SignerRemoved(address indexed signer, address indexed by);

    /// @notice The caller is not an anchor signer.
    error NotSigner(address caller);
    /// @notice anchorBatch got arrays of different lengths.
    error LengthMismatch(uint256 hashes, uint256 states);
    /// @notice The signer cannot be the zero address.
    error ZeroSigner();
    /// @notice A signer cannot remove itself (the set never becomes empty).
    error SelfRemoval(address signer);

    /// @notice The accounts allowed to anchor now.
    mapping(address => bool) public isSigner;

    constructor(address signer_) {
        if (signer_ == address(0)) revert ZeroSigner();
        isSigner[signer_] = true;
        emit SignerAdded(signer_, msg.sender);
    }

    modifier onlySigner() {
        if (!isSigner[msg.sender]) revert NotSigner(msg.sender);
        _;
    }

    /// @notice Authorises another signer (the next one of a rotation). Adding a signer twice changes nothing.
    function addSigner(address next) external onlySigner {
        if (next == address(0)) revert ZeroSigner();
        if (!isSigner[next]) {
            isSigner[next] = true;
            emit SignerAdded(next, msg.sender);
        }
    }

    /// @notice Ends another signer's authorisation (the outgoing one of a rotation). Removing twice changes nothing.
    function removeSigner(address old) external onlySigner {
        if (old == msg.sender) revert SelfRemoval(old);
        if (isSigner[old]) {
            isSigner[old] = false;
            emit SignerRemoved(old, msg.sender);
        }
    }

    /// @notice Anchors one transition.
    function anchor(bytes32 mandateHash, string calldata state) external onlySigner {
        emit MandateAnchored(mandateHash, state, block.timestamp, msg.sender);
    }

    /// @notice Anchors several transitions in one transaction: one event per item, in array order,
    ///         so item i is the i-th MandateAnchored log of the receipt.
    function anchorBatch(bytes32[] calldata mandateHashes, string[] calldata states) external onlySigner {
        uint256 n = mandateHashes.length;
        if (n != states.length) revert LengthMismatch(n, states.length);
        for (uint256 i = 0; i < n; ++i) {
            emit MandateAnchored(mandateHashes[i], states[i], block.timestamp, msg.sender);
        }
    }
}
