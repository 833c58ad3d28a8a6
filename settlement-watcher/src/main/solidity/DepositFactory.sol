// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @notice The part of ERC-20 a forwarder needs.
interface IERC20Min {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

/// @title DepositForwarder
/// @notice Lives at an invoice's own payment address once the first sweep deploys it (CREATE2, salt
///         derived from the invoice id). It holds no key and can only hand its whole token balance to
///         the factory's treasury, and only when the factory asks. No constructor arguments: the init
///         code, and so every deposit address, depends on nothing but the factory and the salt.
contract DepositForwarder {
    /// @notice The factory that deployed this forwarder; the only caller of flush.
    address public immutable factory;

    error NotFactory(address caller);
    error TransferFailed(address token);

    constructor() {
        factory = msg.sender;
    }

    /// @notice Sends this address's whole balance of token to `to`; returns the amount moved.
    function flush(address token, address to) external returns (uint256 amount) {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        amount = IERC20Min(token).balanceOf(address(this));
        if (amount > 0 && !IERC20Min(token).transfer(to, amount)) revert TransferFailed(token);
    }
}

/// @title DepositFactory
/// @notice One per chain and seller wallet. Each invoice is paid to depositAddress(salt), a
///         counterfactual CREATE2 address of a DepositForwarder: nothing is deployed until a sweep.
///         sweep deploys the forwarders that are missing and moves their token balances to the
///         treasury fixed at deployment. Anyone may call sweep (whoever pays the gas): the money can
///         only ever go to the treasury, so the sweeping key holds gas and nothing else.
contract DepositFactory {
    /// @notice One deposit address swept: how much of token it handed to the treasury.
    event Swept(bytes32 indexed salt, address indexed deposit, address indexed token, uint256 amount);

    error ZeroTreasury();

    /// @notice The seller wallet every sweep pays.
    address public immutable treasury;

    constructor(address treasury_) {
        if (treasury_ == address(0)) revert ZeroTreasury();
        treasury = treasury_;
    }

    /// @notice keccak256 of the forwarder's init code (the CREATE2 address formula's last input).
    function forwarderInitCodeHash() public pure returns (bytes32) {
        return keccak256(type(DepositForwarder).creationCode);
    }

    /// @notice The deposit address of a salt: keccak256(0xff ++ this ++ salt ++ initCodeHash)[12:].
    function depositAddress(bytes32 salt) public view returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt,
            forwarderInitCodeHash())))));
    }

    /// @notice Deploys each salt's forwarder if needed and moves its whole token balance to the
    ///         treasury; returns the total moved. Idempotent: an empty or already swept address moves 0.
    function sweep(address token, bytes32[] calldata salts) external returns (uint256 total) {
        for (uint256 i = 0; i < salts.length; i++) {
            address deposit = depositAddress(salts[i]);
            if (deposit.code.length == 0) {
                new DepositForwarder{salt: salts[i]}();
            }
            uint256 amount = DepositForwarder(deposit).flush(token, treasury);
            emit Swept(salts[i], deposit, token, amount);
            total += amount;
        }
    }
}
