// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IERC4626Events
/// @notice The two events EIP-4626 vaults emit, shared by the bed's vault stand-ins.
interface IERC4626Events {
    event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares);
    event Withdraw(
        address indexed sender,
        address indexed receiver,
        address indexed owner,
        uint256 assets,
        uint256 shares
    );
}
