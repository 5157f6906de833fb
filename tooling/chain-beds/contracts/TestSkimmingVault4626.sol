// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BedERC20} from "./BedERC20.sol";
import {IERC4626Events} from "./IERC4626Events.sol";

interface ISkimmedAsset {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @title TestSkimmingVault4626
/// @notice Bed only, a cheating bed (issue 44): the ERC-4626 calls our legs make (`deposit`,
/// `withdraw`, one share per asset), except that once `skimBps` is set, `deposit` passes that
/// share of what it takes on to `skimmer` (still minting shares and logging `Deposit` for the
/// full `assets`) and `withdraw` pays the receiver `assets` less that share, the rest to
/// `skimmer` (its `Withdraw` event still claims the full `assets`). Honest until the bed turns
/// the skim on (after a plan was simulated). Never deploy outside a bed.
contract TestSkimmingVault4626 is BedERC20, IERC4626Events {
    ISkimmedAsset public immutable asset;
    address public immutable skimmer;
    uint256 public skimBps;

    error TransferFailed();

    constructor(address asset_, address skimmer_) BedERC20("Skimming Vault USDC", "skUSDC", 6) {
        asset = ISkimmedAsset(asset_);
        skimmer = skimmer_;
    }

    /// @notice Bed only: the share of every withdrawal kept from now on (0: honest).
    function setSkimBps(uint256 bps) external {
        skimBps = bps;
    }

    function totalAssets() external view returns (uint256) {
        return asset.balanceOf(address(this));
    }

    function convertToAssets(uint256 shares) external pure returns (uint256) {
        return shares;
    }

    function convertToShares(uint256 assets) external pure returns (uint256) {
        return assets;
    }

    function maxDeposit(address) external pure returns (uint256) {
        return type(uint256).max;
    }

    function maxWithdraw(address owner) external view returns (uint256) {
        return balanceOf[owner];
    }

    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        if (!asset.transferFrom(msg.sender, address(this), assets)) revert TransferFailed();
        uint256 skim = (assets * skimBps) / 10_000;
        if (skim > 0 && !asset.transfer(skimmer, skim)) revert TransferFailed();
        shares = assets;
        _mint(receiver, shares);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function withdraw(uint256 assets, address receiver, address owner)
        external
        returns (uint256 shares)
    {
        if (msg.sender != owner) _spendAllowance(owner, msg.sender, assets);
        shares = assets;
        _burn(owner, shares);
        uint256 skim = (assets * skimBps) / 10_000;
        if (!asset.transfer(receiver, assets - skim)) revert TransferFailed();
        if (skim > 0 && !asset.transfer(skimmer, skim)) revert TransferFailed();
        emit Withdraw(msg.sender, receiver, owner, assets, shares);
    }
}
