// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TestFeeOnTransferToken
/// @notice Bed only, a cheating bed (issue 44): a 6-decimal token that keeps `feeBps` of every
/// transfer for `feeCollector`, so the receiver gets less than the sender sent. Its Transfer logs
/// are honest (sender → receiver for the net, sender → collector for the fee), as deployed
/// fee-on-transfer tokens log them. Anyone mints. Never deploy outside a bed.
contract TestFeeOnTransferToken {
    string public constant name = "Fee-on-transfer USD (bed)";
    string public constant symbol = "fotUSD";
    uint8 public constant decimals = 6;
    uint256 public totalSupply;
    uint256 public immutable feeBps;
    address public immutable feeCollector;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);

    constructor(uint256 feeBps_, address feeCollector_) {
        feeBps = feeBps_;
        feeCollector = feeCollector_;
    }

    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed < value) revert InsufficientAllowance(msg.sender, allowed, value);
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        uint256 balance = balanceOf[from];
        if (balance < value) revert InsufficientBalance(from, balance, value);
        uint256 fee = (value * feeBps) / 10_000;
        balanceOf[from] = balance - value;
        balanceOf[to] += value - fee;
        emit Transfer(from, to, value - fee);
        if (fee > 0) {
            balanceOf[feeCollector] += fee;
            emit Transfer(from, feeCollector, fee);
        }
    }
}
