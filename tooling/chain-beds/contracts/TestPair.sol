// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IBedERC20 {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @title TestPair
/// @notice Bed-only constant-product pair (Uniswap v2 pricing, 30 bps LP fee on the input) that
///         the bed's 0x-shaped quote fake routes through. The caller pays the integrator fee it
///         names out of the amount in, to the fee recipient, in the same transaction.
contract TestPair {
    uint256 public constant FEE_BPS = 30;

    address public immutable token0;
    address public immutable token1;
    uint256 public reserve0;
    uint256 public reserve1;

    event Swap(
        address indexed sender,
        address indexed tokenIn,
        uint256 amountIn,
        uint256 amountOut,
        address indexed to
    );
    event Sync(uint256 reserve0, uint256 reserve1);

    error UnknownToken(address token);
    error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);
    error FeeAboveAmount(uint256 feeAmount, uint256 amountIn);

    constructor(address token0_, address token1_) {
        token0 = token0_;
        token1 = token1_;
    }

    function getReserves() external view returns (uint256, uint256) {
        return (reserve0, reserve1);
    }

    /// @notice Adds both tokens at the caller's ratio (bed seeding; no LP shares are minted).
    function addLiquidity(uint256 amount0, uint256 amount1) external {
        IBedERC20(token0).transferFrom(msg.sender, address(this), amount0);
        IBedERC20(token1).transferFrom(msg.sender, address(this), amount1);
        reserve0 += amount0;
        reserve1 += amount1;
        emit Sync(reserve0, reserve1);
    }

    /// @notice What `amountIn` of `tokenIn` buys now (after the LP fee).
    function getAmountOut(address tokenIn, uint256 amountIn) public view returns (uint256) {
        (uint256 reserveIn, uint256 reserveOut) = _reserves(tokenIn);
        uint256 withFee = amountIn * (10_000 - FEE_BPS);
        return (withFee * reserveOut) / (reserveIn * 10_000 + withFee);
    }

    /// @notice Sells `amountIn` of `tokenIn` from the caller: `feeAmount` of it goes to
    ///         `feeRecipient`, the rest is swapped; reverts when the output is below
    ///         `minAmountOut`. The output goes to `to`.
    function swapExactIn(
        address tokenIn,
        uint256 amountIn,
        uint256 minAmountOut,
        address to,
        address feeRecipient,
        uint256 feeAmount
    ) external returns (uint256 amountOut) {
        if (feeAmount > amountIn) revert FeeAboveAmount(feeAmount, amountIn);
        uint256 swapped = amountIn - feeAmount;
        amountOut = getAmountOut(tokenIn, swapped);
        if (amountOut < minAmountOut) revert InsufficientOutput(amountOut, minAmountOut);
        if (feeAmount > 0) IBedERC20(tokenIn).transferFrom(msg.sender, feeRecipient, feeAmount);
        IBedERC20(tokenIn).transferFrom(msg.sender, address(this), swapped);
        address tokenOut = tokenIn == token0 ? token1 : token0;
        IBedERC20(tokenOut).transfer(to, amountOut);
        if (tokenIn == token0) {
            reserve0 += swapped;
            reserve1 -= amountOut;
        } else {
            reserve1 += swapped;
            reserve0 -= amountOut;
        }
        emit Swap(msg.sender, tokenIn, swapped, amountOut, to);
        emit Sync(reserve0, reserve1);
    }

    function _reserves(address tokenIn) private view returns (uint256, uint256) {
        if (tokenIn == token0) return (reserve0, reserve1);
        if (tokenIn == token1) return (reserve1, reserve0);
        revert UnknownToken(tokenIn);
    }
}
