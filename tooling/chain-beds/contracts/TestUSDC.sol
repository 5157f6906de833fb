// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BedERC20} from "./BedERC20.sol";

/// @title TestUSDC
/// @notice Bed-only USDC stand-in: 6 decimals, and anyone may mint. Never deploy outside a bed.
contract TestUSDC is BedERC20 {
    constructor() BedERC20("Test USD Coin", "USDC", 6) {}

    function mint(address to, uint256 value) external {
        _mint(to, value);
    }

    /// @notice Burns the caller's tokens (the CCTP stand-in burns what it takes).
    function burn(uint256 value) external {
        _burn(msg.sender, value);
    }
}
