// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/**
 * @title LocalUsdc
 * @notice A development stand-in for Circle's USDC on the local anvil chains: an ERC-20 with 6 decimals,
 * EIP-3009 (transferWithAuthorization, receiveWithAuthorization, cancelAuthorization,
 * authorizationState) and an EIP-712 domain whose name and version match the real token on the chain.
 *
 * The local stack deploys it anywhere and then copies its runtime code to the canonical USDC address
 * with anvil_setCode. Storage is not copied, so everything the token needs before its first mint lives
 * in immutables (embedded in the runtime code): name, version and owner. The domain separator is
 * computed on every call from block.chainid and address(this), so it is right at the copied address.
 */
contract LocalUsdc {
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
        keccak256("ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    // Short strings packed into one word: bytes 0..30 hold the text, byte 31 its length.
    bytes32 private immutable _packedName;
    bytes32 private immutable _packedVersion;
    address public immutable owner;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => mapping(bytes32 => bool)) private _authorizationUsed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    constructor(string memory name_, string memory version_, address owner_) {
        _packedName = _pack(name_);
        _packedVersion = _pack(version_);
        owner = owner_;
    }

    function name() public view returns (string memory) {
        return _unpack(_packedName);
    }

    function version() public view returns (string memory) {
        return _unpack(_packedVersion);
    }

    function symbol() external pure returns (string memory) {
        return "USDC";
    }

    function decimals() external pure returns (uint8) {
        return 6;
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(EIP712_DOMAIN_TYPEHASH, keccak256(bytes(name())), keccak256(bytes(version())),
            block.chainid, address(this)));
    }

    /// EIP-5267: lets wallets and libraries read the domain instead of guessing it.
    function eip712Domain() external view returns (bytes1 fields, string memory name_, string memory version_,
        uint256 chainId, address verifyingContract, bytes32 salt, uint256[] memory extensions) {
        return (hex"0f", name(), version(), block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner, "LocalUsdc: caller is not the owner");
        require(to != address(0), "LocalUsdc: mint to the zero address");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: transfer amount exceeds allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationUsed[authorizer][nonce];
    }

    function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter,
        uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        _transferWithAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore,
            nonce, abi.encodePacked(r, s, v));
    }

    /// The USDC v2.2 form taking a packed 65-byte signature.
    function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter,
        uint256 validBefore, bytes32 nonce, bytes memory signature) external {
        _transferWithAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore,
            nonce, signature);
    }

    function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter,
        uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _transferWithAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore,
            nonce, abi.encodePacked(r, s, v));
    }

    function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter,
        uint256 validBefore, bytes32 nonce, bytes memory signature) external {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _transferWithAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore,
            nonce, signature);
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        require(!_authorizationUsed[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
        bytes32 structHash = keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce));
        require(_recover(_digest(structHash), abi.encodePacked(r, s, v)) == authorizer, "FiatTokenV2: invalid signature");
        _authorizationUsed[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _transferWithAuthorization(bytes32 typeHash, address from, address to, uint256 value,
        uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes memory signature) private {
        require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
        require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
        require(!_authorizationUsed[from][nonce], "FiatTokenV2: authorization is used or canceled");
        bytes32 structHash = keccak256(abi.encode(typeHash, from, to, value, validAfter, validBefore, nonce));
        require(_recover(_digest(structHash), signature) == from, "FiatTokenV2: invalid signature");
        _authorizationUsed[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "ERC20: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= value, "ERC20: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] = balance - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _digest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    function _recover(bytes32 digest, bytes memory signature) private pure returns (address) {
        require(signature.length == 65, "ECRecover: invalid signature length");
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        // Reject malleable signatures as USDC does (upper-half s, v other than 27/28).
        require(uint256(s) <= 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0, "ECRecover: invalid signature 's' value");
        require(v == 27 || v == 28, "ECRecover: invalid signature 'v' value");
        address signer = ecrecover(digest, v, r, s);
        require(signer != address(0), "ECRecover: invalid signature");
        return signer;
    }

    function _pack(string memory text) private pure returns (bytes32 packed) {
        bytes memory b = bytes(text);
        require(b.length < 32, "LocalUsdc: string longer than 31 bytes");
        assembly {
            packed := mload(add(b, 0x20))
        }
        // Clear whatever followed the text in memory, then put the length into the last byte.
        packed = (packed & ~bytes32(type(uint256).max >> (8 * b.length))) | bytes32(b.length);
    }

    function _unpack(bytes32 packed) private pure returns (string memory text) {
        uint256 len = uint256(packed) & 0xff;
        text = new string(len);
        bytes32 body = packed & ~bytes32(uint256(0xff));
        assembly {
            mstore(add(text, 0x20), body)
        }
    }
}
