// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BedERC20} from "./BedERC20.sol";

/// @title TestToken
/// @notice Bed-only ERC-20 with any decimals (the WETH stand-in of the swap bed); anyone mints.
///         Like WETH9 it unwraps (`withdraw` pays native 1:1) and wraps (`deposit`); the bed funds
///         the contract with native so minted tokens unwrap too.
contract TestToken is BedERC20 {
    constructor(string memory name_, string memory symbol_, uint8 decimals_)
        BedERC20(name_, symbol_, decimals_)
    {}

    function mint(address to, uint256 value) external {
        _mint(to, value);
    }

    function deposit() public payable {
        _mint(msg.sender, msg.value);
    }

    function withdraw(uint256 wad) external {
        _burn(msg.sender, wad);
        (bool paid, ) = payable(msg.sender).call{value: wad}("");
        require(paid, "TestToken: native transfer failed");
    }

    receive() external payable {
        deposit();
    }
}
