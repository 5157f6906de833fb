// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BedERC20} from "./BedERC20.sol";
import {IERC4626Events} from "./IERC4626Events.sol";

interface IBedAsset {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function mint(address to, uint256 value) external;
}

/// @title TestVault4626
/// @notice A minimal EIP-4626 vault over one asset, for local chain beds.
/// @dev Shares use a virtual share and a virtual asset of 1 (as OpenZeppelin with offset 0) so a
/// first depositor cannot inflate the price; conversions round in the vault's favour as EIP-4626
/// requires (deposit/redeem down, mint/withdraw up). `simulateYield` is bed-only.
contract TestVault4626 is BedERC20, IERC4626Events {
    IBedAsset public immutable asset;
    /// @notice Bed only: the most the vault holds (uint256 max: no limit), as a capped vault's.
    uint256 public depositLimit = type(uint256).max;

    error ExceedsMax(uint256 requested, uint256 max);
    error TransferFailed();

    constructor(address asset_) BedERC20("Test Vault USDC", "tvUSDC", 6) {
        asset = IBedAsset(asset_);
    }

    function totalAssets() public view returns (uint256) {
        return asset.balanceOf(address(this));
    }

    function convertToShares(uint256 assets) public view returns (uint256) {
        return _toShares(assets, false);
    }

    function convertToAssets(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, false);
    }

    /// @dev Room left under `depositLimit` (uint256 max while there is no limit).
    function maxDeposit(address) public view returns (uint256) {
        if (depositLimit == type(uint256).max) return type(uint256).max;
        uint256 held = totalAssets();
        return held >= depositLimit ? 0 : depositLimit - held;
    }

    function maxMint(address receiver) external view returns (uint256) {
        uint256 assets = maxDeposit(receiver);
        return assets == type(uint256).max ? assets : _toShares(assets, false);
    }

    /// @notice Bed only: caps what the vault holds; uint256 max removes the cap.
    function setDepositLimit(uint256 limit) external {
        depositLimit = limit;
    }

    function maxWithdraw(address owner) public view returns (uint256) {
        return _toAssets(balanceOf[owner], false);
    }

    function maxRedeem(address owner) public view returns (uint256) {
        return balanceOf[owner];
    }

    function previewDeposit(uint256 assets) public view returns (uint256) {
        return _toShares(assets, false);
    }

    function previewMint(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, true);
    }

    function previewWithdraw(uint256 assets) public view returns (uint256) {
        return _toShares(assets, true);
    }

    function previewRedeem(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, false);
    }

    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        uint256 max = maxDeposit(receiver);
        if (assets > max) revert ExceedsMax(assets, max);
        shares = previewDeposit(assets);
        _enter(receiver, assets, shares);
    }

    function mint(uint256 shares, address receiver) external returns (uint256 assets) {
        assets = previewMint(shares);
        uint256 max = maxDeposit(receiver);
        if (assets > max) revert ExceedsMax(assets, max);
        _enter(receiver, assets, shares);
    }

    function withdraw(uint256 assets, address receiver, address owner)
        external
        returns (uint256 shares)
    {
        uint256 max = maxWithdraw(owner);
        if (assets > max) revert ExceedsMax(assets, max);
        shares = previewWithdraw(assets);
        _exit(receiver, owner, assets, shares);
    }

    function redeem(uint256 shares, address receiver, address owner)
        external
        returns (uint256 assets)
    {
        uint256 max = maxRedeem(owner);
        if (shares > max) revert ExceedsMax(shares, max);
        assets = previewRedeem(shares);
        _exit(receiver, owner, assets, shares);
    }

    /// @notice Bed only: mints `assets` of the asset into the vault, so every share is worth more.
    function simulateYield(uint256 assets) external {
        asset.mint(address(this), assets);
    }

    function _enter(address receiver, uint256 assets, uint256 shares) private {
        if (!asset.transferFrom(msg.sender, address(this), assets)) revert TransferFailed();
        _mint(receiver, shares);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function _exit(address receiver, address owner, uint256 assets, uint256 shares) private {
        if (msg.sender != owner) _spendAllowance(owner, msg.sender, shares);
        _burn(owner, shares);
        if (!asset.transfer(receiver, assets)) revert TransferFailed();
        emit Withdraw(msg.sender, receiver, owner, assets, shares);
    }

    function _toShares(uint256 assets, bool roundUp) private view returns (uint256) {
        return _mulDiv(assets, totalSupply + 1, totalAssets() + 1, roundUp);
    }

    function _toAssets(uint256 shares, bool roundUp) private view returns (uint256) {
        return _mulDiv(shares, totalAssets() + 1, totalSupply + 1, roundUp);
    }

    /// @dev Checked: a product over 2^256 reverts rather than wrapping (amounts in a bed are small).
    function _mulDiv(uint256 x, uint256 y, uint256 d, bool roundUp) private pure returns (uint256) {
        uint256 product = x * y;
        uint256 quotient = product / d;
        if (roundUp && quotient * d != product) quotient += 1;
        return quotient;
    }
}
