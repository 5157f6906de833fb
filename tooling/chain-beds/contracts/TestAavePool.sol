// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BedERC20} from "./BedERC20.sol";

interface IBedUnderlying {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @title TestAToken
/// @notice Bed-only Aave v3 aToken stand-in: holds the underlying, minted and burned 1:1 by its
/// pool (no interest index; a bed adds yield by minting underlying elsewhere).
contract TestAToken is BedERC20 {
    address public immutable pool;
    IBedUnderlying public immutable underlying;

    error NotPool(address caller);

    constructor(address underlying_) BedERC20("Test Aave USDC", "aTestUSDC", 6) {
        pool = msg.sender;
        underlying = IBedUnderlying(underlying_);
    }

    modifier onlyPool() {
        if (msg.sender != pool) revert NotPool(msg.sender);
        _;
    }

    function mint(address to, uint256 value) external onlyPool {
        _mint(to, value);
    }

    function burn(address from, uint256 value) external onlyPool {
        _burn(from, value);
    }

    function transferUnderlyingTo(address to, uint256 value) external onlyPool {
        if (!underlying.transfer(to, value)) revert NotPool(msg.sender);
    }
}

/// @title TestAavePool
/// @notice Bed-only stand-in for the Aave v3 Pool's `supply` and `withdraw` over one asset, with
/// the same money movements as Aave: USDC goes from the caller to the aToken and back.
contract TestAavePool {
    address public immutable asset;
    TestAToken public immutable aToken;

    event Supply(
        address indexed reserve,
        address user,
        address indexed onBehalfOf,
        uint256 amount,
        uint16 indexed referralCode
    );
    event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount);

    error UnknownReserve(address reserve);
    error TransferFailed();

    constructor(address asset_) {
        asset = asset_;
        aToken = new TestAToken(asset_);
    }

    function supply(address reserve, uint256 amount, address onBehalfOf, uint16 referralCode) external {
        if (reserve != asset) revert UnknownReserve(reserve);
        if (!IBedUnderlying(asset).transferFrom(msg.sender, address(aToken), amount)) {
            revert TransferFailed();
        }
        aToken.mint(onBehalfOf, amount);
        emit Supply(reserve, msg.sender, onBehalfOf, amount, referralCode);
    }

    /// @dev `amount == type(uint256).max` withdraws the whole balance, as on Aave.
    function withdraw(address reserve, uint256 amount, address to) external returns (uint256) {
        if (reserve != asset) revert UnknownReserve(reserve);
        uint256 value = amount == type(uint256).max ? aToken.balanceOf(msg.sender) : amount;
        aToken.burn(msg.sender, value);
        aToken.transferUnderlyingTo(to, value);
        emit Withdraw(reserve, msg.sender, to, value);
        return value;
    }
}
