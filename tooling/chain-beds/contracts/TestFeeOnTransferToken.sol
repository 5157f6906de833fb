// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BedERC20} from "./BedERC20.sol";

/// @title TestFeeOnTransferToken
/// @notice Bed only, a cheating bed (issue 44): a 6-decimal token that keeps `feeBps` of every
/// transfer for `feeCollector`, so the receiver gets less than the sender sent. Its Transfer logs
/// are honest (sender → receiver for the net, sender → collector for the fee), as deployed
/// fee-on-transfer tokens log them. Anyone mints. Never deploy outside a bed.
contract TestFeeOnTransferToken is BedERC20 {
    uint256 public immutable feeBps;
    address public immutable feeCollector;

    constructor(uint256 feeBps_, address feeCollector_)
        BedERC20("Fee-on-transfer USD (bed)", "fotUSD", 6)
    {
        feeBps = feeBps_;
        feeCollector = feeCollector_;
    }

    function mint(address to, uint256 value) external {
        _mint(to, value);
    }

    /// @dev The sender pays `value`; the receiver gets it less the fee, the collector the fee.
    function _transfer(address from, address to, uint256 value) internal override {
        uint256 fee = (value * feeBps) / 10_000;
        super._transfer(from, to, value - fee);
        if (fee > 0) super._transfer(from, feeCollector, fee);
    }
}
