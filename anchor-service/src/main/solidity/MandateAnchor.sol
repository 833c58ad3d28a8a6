// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title MandateAnchor
/// @notice Anchors mandate state transitions as logs. The contract keeps no storage: each anchored
///         transition is one MandateAnchored event, found again through its transaction receipt.
/// @dev mandateHash is indexed so that every anchor of one mandate can be found with eth_getLogs
///      (topic filter) without scanning; state, ts and sender stay in the log data.
///      Only the signer fixed at deployment may anchor (an immutable lives in the code, not in storage).
contract MandateAnchor {
    /// @notice One mandate transition: the mandate's canonical hash, the state it entered, the block
    ///         timestamp and the anchoring account.
    event MandateAnchored(bytes32 indexed mandateHash, string state, uint256 ts, address sender);

    /// @notice The caller is not the anchor signer.
    error NotSigner(address caller);
    /// @notice anchorBatch got arrays of different lengths.
    error LengthMismatch(uint256 hashes, uint256 states);
    /// @notice The signer cannot be the zero address.
    error ZeroSigner();

    /// @notice The only account allowed to anchor.
    address public immutable signer;

    constructor(address signer_) {
        if (signer_ == address(0)) revert ZeroSigner();
        signer = signer_;
    }

    modifier onlySigner() {
        if (msg.sender != signer) revert NotSigner(msg.sender);
        _;
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
