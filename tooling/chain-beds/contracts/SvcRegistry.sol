// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SvcRegistry
/// @notice The service registry's fee configuration on EVM chains (SPEC: yield skim 500 bps,
/// deposit 0 bps, maximum yield skim 1000 bps). The maximum is fixed at deployment; the owner may
/// change the two fees within it.
contract SvcRegistry {
    uint16 public constant BPS_DENOMINATOR = 10_000;

    address public owner;
    uint16 public yieldSkimBps;
    uint16 public depositFeeBps;
    uint16 public immutable maxYieldSkimBps;

    event FeeConfigSet(uint16 yieldSkimBps, uint16 depositFeeBps);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner(address caller);
    error SkimAboveMax(uint16 yieldSkimBps, uint16 maxYieldSkimBps);
    error BpsAboveDenominator(uint16 bps);
    error ZeroAddress();

    constructor(uint16 yieldSkimBps_, uint16 depositFeeBps_, uint16 maxYieldSkimBps_) {
        if (maxYieldSkimBps_ > BPS_DENOMINATOR) revert BpsAboveDenominator(maxYieldSkimBps_);
        owner = msg.sender;
        maxYieldSkimBps = maxYieldSkimBps_;
        _setFeeConfig(yieldSkimBps_, depositFeeBps_);
        emit OwnershipTransferred(address(0), msg.sender);
    }

    /// @notice The fee configuration, in basis points.
    function feeConfig()
        external
        view
        returns (uint16 yieldSkimBps_, uint16 depositFeeBps_, uint16 maxYieldSkimBps_)
    {
        return (yieldSkimBps, depositFeeBps, maxYieldSkimBps);
    }

    function setFeeConfig(uint16 yieldSkimBps_, uint16 depositFeeBps_) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _setFeeConfig(yieldSkimBps_, depositFeeBps_);
    }

    function transferOwnership(address newOwner) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function _setFeeConfig(uint16 yieldSkimBps_, uint16 depositFeeBps_) private {
        if (yieldSkimBps_ > maxYieldSkimBps) revert SkimAboveMax(yieldSkimBps_, maxYieldSkimBps);
        if (depositFeeBps_ > BPS_DENOMINATOR) revert BpsAboveDenominator(depositFeeBps_);
        yieldSkimBps = yieldSkimBps_;
        depositFeeBps = depositFeeBps_;
        emit FeeConfigSet(yieldSkimBps_, depositFeeBps_);
    }
}
