// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BedERC20} from "./BedERC20.sol";

/// @title TestToken
/// @notice Bed-only ERC-20 with any decimals (the WETH stand-in of the swap bed); anyone mints.
contract TestToken is BedERC20 {
    constructor(string memory name_, string memory symbol_, uint8 decimals_)
        BedERC20(name_, symbol_, decimals_)
    {}

    function mint(address to, uint256 value) external {
        _mint(to, value);
    }
}
