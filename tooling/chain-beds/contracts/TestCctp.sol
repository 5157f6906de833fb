// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IBedUsdc {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function mint(address to, uint256 value) external;
    function burn(uint256 value) external;
}

/// @title TestMessageTransmitterV2
/// @notice Bed-only stand-in for Circle's CCTP v2 MessageTransmitterV2: `sendMessage` emits
/// `MessageSent` with a v2-format message (nonce left zero, as on v2: the attestation service
/// assigns it); `receiveMessage(message, attestation)` checks one attester's ECDSA signature over
/// keccak256(message), the destination domain, the destination caller and the nonce, then hands
/// the body to the recipient. Never deploy outside a bed.
contract TestMessageTransmitterV2 {
    uint32 public immutable localDomain;
    address public immutable attester;
    address public tokenMessenger;
    mapping(bytes32 => uint256) public usedNonces;

    event MessageSent(bytes message);
    event MessageReceived(
        address indexed caller,
        uint32 sourceDomain,
        bytes32 indexed nonce,
        bytes32 sender,
        uint32 indexed finalityThresholdExecuted,
        bytes messageBody
    );

    constructor(uint32 domain, address attester_) {
        localDomain = domain;
        attester = attester_;
    }

    function setTokenMessenger(address messenger) external {
        require(tokenMessenger == address(0), "token messenger already set");
        tokenMessenger = messenger;
    }

    function sendMessage(
        uint32 destinationDomain,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) external {
        require(msg.sender == tokenMessenger, "only the token messenger");
        emit MessageSent(
            abi.encodePacked(
                uint32(1),
                localDomain,
                destinationDomain,
                bytes32(0),
                bytes32(uint256(uint160(msg.sender))),
                recipient,
                destinationCaller,
                minFinalityThreshold,
                uint32(0),
                messageBody
            )
        );
    }

    function receiveMessage(bytes calldata message, bytes calldata attestation) external returns (bool) {
        require(attestation.length == 65, "invalid attestation length");
        require(message.length >= 148, "invalid message length");
        address signer = ecrecover(
            keccak256(message),
            uint8(attestation[64]),
            bytes32(attestation[0:32]),
            bytes32(attestation[32:64])
        );
        require(signer != address(0) && signer == attester, "invalid attestation");
        require(uint32(bytes4(message[8:12])) == localDomain, "invalid destination domain");
        bytes32 caller = bytes32(message[108:140]);
        require(
            caller == bytes32(0) || caller == bytes32(uint256(uint160(msg.sender))),
            "invalid caller for message"
        );
        bytes32 nonce = bytes32(message[12:44]);
        require(usedNonces[nonce] == 0, "nonce already used");
        usedNonces[nonce] = 1;
        _deliver(message);
        return true;
    }

    function _deliver(bytes calldata message) private {
        uint32 sourceDomain = uint32(bytes4(message[4:8]));
        uint32 executed = uint32(bytes4(message[144:148]));
        TestTokenMessengerV2(address(uint160(uint256(bytes32(message[76:108])))))
            .handleReceiveFinalizedMessage(sourceDomain, bytes32(message[44:76]), executed, message[148:]);
        emit MessageReceived(
            msg.sender,
            sourceDomain,
            bytes32(message[12:44]),
            bytes32(message[44:76]),
            executed,
            message[148:]
        );
    }
}

/// @title TestTokenMessengerV2
/// @notice Bed-only stand-in for Circle's CCTP v2 TokenMessengerV2 over the bed's USDC:
/// `depositForBurn` takes and burns the owner's USDC, emits `DepositForBurn` and sends the v2 burn
/// message; on receipt it mints `amount − feeExecuted` to the recipient (`MintAndWithdraw`).
contract TestTokenMessengerV2 {
    TestMessageTransmitterV2 public immutable localMessageTransmitter;
    address public immutable localToken;
    address public immutable feeRecipient;
    mapping(uint32 => bytes32) public remoteTokenMessengers;

    event DepositForBurn(
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 indexed minFinalityThreshold,
        bytes hookData
    );
    event MintAndWithdraw(
        address indexed mintRecipient,
        uint256 amount,
        address indexed mintToken,
        uint256 feeCollected
    );

    constructor(TestMessageTransmitterV2 transmitter, address token, address feeRecipient_) {
        localMessageTransmitter = transmitter;
        localToken = token;
        feeRecipient = feeRecipient_;
    }

    function addRemoteTokenMessenger(uint32 domain, bytes32 messenger) external {
        require(remoteTokenMessengers[domain] == bytes32(0), "remote already set");
        remoteTokenMessengers[domain] = messenger;
    }

    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external {
        require(amount > 0, "amount must be nonzero");
        require(mintRecipient != bytes32(0), "mint recipient must be nonzero");
        require(burnToken == localToken, "burn token not supported");
        require(maxFee < amount, "max fee must be less than amount");
        bytes32 remote = remoteTokenMessengers[destinationDomain];
        require(remote != bytes32(0), "no token messenger for domain");
        require(IBedUsdc(burnToken).transferFrom(msg.sender, address(this), amount), "transfer failed");
        IBedUsdc(burnToken).burn(amount);
        bytes memory body = abi.encodePacked(
            uint32(1),
            bytes32(uint256(uint160(burnToken))),
            mintRecipient,
            amount,
            bytes32(uint256(uint160(msg.sender))),
            maxFee,
            uint256(0),
            uint256(0)
        );
        localMessageTransmitter.sendMessage(
            destinationDomain,
            remote,
            destinationCaller,
            minFinalityThreshold,
            body
        );
        emit DepositForBurn(
            burnToken,
            amount,
            msg.sender,
            mintRecipient,
            destinationDomain,
            remote,
            destinationCaller,
            maxFee,
            minFinalityThreshold,
            ""
        );
    }

    function handleReceiveFinalizedMessage(
        uint32 remoteDomain,
        bytes32 sender,
        uint32,
        bytes calldata messageBody
    ) external returns (bool) {
        require(msg.sender == address(localMessageTransmitter), "invalid message transmitter");
        require(sender == remoteTokenMessengers[remoteDomain], "remote token messenger not supported");
        address recipient = address(uint160(uint256(bytes32(messageBody[36:68]))));
        uint256 amount = uint256(bytes32(messageBody[68:100]));
        uint256 maxFee = uint256(bytes32(messageBody[132:164]));
        uint256 fee = uint256(bytes32(messageBody[164:196]));
        require(fee <= maxFee && fee < amount, "fee out of range");
        IBedUsdc(localToken).mint(recipient, amount - fee);
        if (fee > 0) IBedUsdc(localToken).mint(feeRecipient, fee);
        emit MintAndWithdraw(recipient, amount - fee, localToken, fee);
        return true;
    }
}
