// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IBedUnderlying {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function mint(address to, uint256 value) external;
    function decimals() external view returns (uint8);
}

interface IBedReserveIncome {
    function getReserveNormalizedIncome(address reserve) external view returns (uint256);
}

/// @title BedRayMath
/// @notice Ray (1e27) multiplication and division with Aave v3's WadRayMath results: half up
/// (`rayMul`, `rayDiv`, every revision) and, from v3.5, down or up (`rayMulFloor`,
/// `rayDivFloor`, `rayDivCeil`). Checked arithmetic here: a bed's amounts never come near
/// overflow.
library BedRayMath {
    uint256 internal constant RAY = 1e27;
    uint256 internal constant HALF_RAY = 0.5e27;

    function rayMul(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * b + HALF_RAY) / RAY;
    }

    function rayDiv(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * RAY + b / 2) / b;
    }

    function rayMulFloor(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * b) / RAY;
    }

    function rayDivFloor(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * RAY) / b;
    }

    function rayDivCeil(uint256 a, uint256 b) internal pure returns (uint256) {
        uint256 scaled = a * RAY;
        return scaled / b + (scaled % b == 0 ? 0 : 1);
    }
}

/// @title BedTokenMath
/// @notice Aave's TokenMath for aTokens, per pool revision: from v3.5 (POOL_REVISION 9) a
/// supply mints `amount.rayDivFloor(index)`, a withdrawal burns `amount.rayDivCeil(index)` and a
/// balance is `scaled.rayMulFloor(index)`; before, all three round half up.
library BedTokenMath {
    using BedRayMath for uint256;

    uint256 internal constant V3_5_POOL_REVISION = 9;

    function mintScaled(bool v35, uint256 amount, uint256 index) internal pure returns (uint256) {
        return v35 ? amount.rayDivFloor(index) : amount.rayDiv(index);
    }

    function burnScaled(bool v35, uint256 amount, uint256 index) internal pure returns (uint256) {
        return v35 ? amount.rayDivCeil(index) : amount.rayDiv(index);
    }

    function balance(bool v35, uint256 scaled, uint256 index) internal pure returns (uint256) {
        return v35 ? scaled.rayMulFloor(index) : scaled.rayMul(index);
    }
}

/// @title BedReserveConfiguration
/// @notice Aave v3's `DataTypes.ReserveConfigurationMap` (one packed word) and the reserve data
/// `IPool.getReserveData` returns (`ReserveDataLegacy` since v3.2, the same ABI as v3.0's
/// `ReserveData`), with the bit positions of Aave v3's ReserveConfiguration library: decimals
/// bits 48–55, active bit 56, frozen 57, paused 60, supply cap (whole tokens, 0 = none) bits
/// 116–151.
library BedReserveConfiguration {
    struct ReserveConfigurationMap {
        uint256 data;
    }

    struct ReserveDataLegacy {
        ReserveConfigurationMap configuration;
        uint128 liquidityIndex;
        uint128 currentLiquidityRate;
        uint128 variableBorrowIndex;
        uint128 currentVariableBorrowRate;
        uint128 currentStableBorrowRate;
        uint40 lastUpdateTimestamp;
        uint16 id;
        address aTokenAddress;
        address stableDebtTokenAddress;
        address variableDebtTokenAddress;
        address interestRateStrategyAddress;
        uint128 accruedToTreasury;
        uint128 unbacked;
        uint128 isolationModeTotalDebt;
    }

    uint256 internal constant DECIMALS_START_BIT = 48;
    uint256 internal constant ACTIVE_BIT = 56;
    uint256 internal constant SUPPLY_CAP_START_BIT = 116;
    /// @dev Aave's MAX_VALID_SUPPLY_CAP: the 36 bits of the field.
    uint256 internal constant MAX_SUPPLY_CAP = 2 ** 36 - 1;

    /// @notice An active, unfrozen, unpaused reserve that only takes supply: decimals, the active
    /// bit and the supply cap are set; every other field is 0 (no collateral use — LTV,
    /// liquidation threshold and bonus 0 —, no borrowing, flash loans, reserve factor, borrow
    /// cap, eMode, unbacked minting or isolation debt ceiling): the bed offers none of them.
    function supplyOnly(uint8 decimals, uint256 supplyCap) internal pure returns (uint256) {
        return
            (uint256(decimals) << DECIMALS_START_BIT) |
            (uint256(1) << ACTIVE_BIT) |
            (supplyCap << SUPPLY_CAP_START_BIT);
    }
}

/// @title TestAToken
/// @notice Bed-only Aave v3 aToken stand-in, in one of two modes its pool chooses:
/// - v3.0–v3.4 (`TOKEN_MATH_V3_5` false): the pool passes amounts; `mint(caller, onBehalfOf,
///   amount, index)` stores `amount.rayDiv(index)` scaled and emits `Mint(caller, onBehalfOf,
///   value = amount + balanceIncrease, balanceIncrease, index)`; `burn(from, target, amount,
///   index)` removes `amount.rayDiv(index)` and emits `Burn(from, target, value = amount -
///   balanceIncrease, …)`, or a `Mint` of balanceIncrease - amount when the interest accrued
///   since the user's last action exceeds the amount; `balanceOf` = scaled `rayMul` the index;
/// - v3.5+ (true): the pool passes scaled amounts it rounded (TokenMath); `mint(caller,
///   onBehalfOf, scaledAmount, index)` and `burn(from, target, amount, scaledAmount, index)`
///   emit differences of floored balances: value = floor((s ± m)·index) - floor(s·previous
///   index), balanceIncrease = floor(s·index) - floor(s·previous index), a `Burn` when the
///   balance fell below the previous one, else a `Mint`; `balanceOf` = scaled `rayMulFloor`.
/// Each event comes with its `Transfer`, as in Aave's ScaledBalanceTokenBase. Not transferable
/// (a bed never needs it).
contract TestAToken {
    using BedRayMath for uint256;

    string public constant name = "Test Aave USDC";
    string public constant symbol = "aTestUSDC";
    uint8 public constant decimals = 6;

    // Named as Aave v3's getters.
    address public immutable POOL;
    address public immutable UNDERLYING_ASSET_ADDRESS;
    /// @dev Bed only: whether this token accounts as Aave v3.5+ (see the contract's notice).
    bool public immutable TOKEN_MATH_V3_5;

    mapping(address => uint256) private _scaledBalances;
    /// @dev The index at each user's last mint or burn (Aave's `_userState.additionalData`).
    mapping(address => uint256) private _previousIndex;
    uint256 private _scaledTotalSupply;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Mint(
        address indexed caller,
        address indexed onBehalfOf,
        uint256 value,
        uint256 balanceIncrease,
        uint256 index
    );
    event Burn(
        address indexed from,
        address indexed target,
        uint256 value,
        uint256 balanceIncrease,
        uint256 index
    );

    error NotPool(address caller);
    error InvalidMintAmount();
    error InvalidBurnAmount();
    error InsufficientBalance(address account, uint256 scaledBalance, uint256 scaledNeeded);
    error TransferFailed();
    error WrongRevisionCall();

    constructor(address underlying, bool tokenMathV35) {
        POOL = msg.sender;
        UNDERLYING_ASSET_ADDRESS = underlying;
        TOKEN_MATH_V3_5 = tokenMathV35;
    }

    modifier onlyPool() {
        if (msg.sender != POOL) revert NotPool(msg.sender);
        _;
    }

    function scaledBalanceOf(address user) external view returns (uint256) {
        return _scaledBalances[user];
    }

    function scaledTotalSupply() external view returns (uint256) {
        return _scaledTotalSupply;
    }

    function getPreviousIndex(address user) external view returns (uint256) {
        return _previousIndex[user];
    }

    function balanceOf(address user) external view returns (uint256) {
        return BedTokenMath.balance(TOKEN_MATH_V3_5, _scaledBalances[user], _normalizedIncome());
    }

    function totalSupply() external view returns (uint256) {
        if (_scaledTotalSupply == 0) return 0;
        return BedTokenMath.balance(TOKEN_MATH_V3_5, _scaledTotalSupply, _normalizedIncome());
    }

    /// @notice v3.0–v3.4: `amountOrScaled` is the amount supplied; v3.5+: the scaled amount.
    /// @return Whether `onBehalfOf` held nothing before (as Aave v3).
    function mint(address caller, address onBehalfOf, uint256 amountOrScaled, uint256 index)
        external
        onlyPool
        returns (bool)
    {
        if (TOKEN_MATH_V3_5) return _mintScaled35(caller, onBehalfOf, amountOrScaled, index);
        uint256 amount = amountOrScaled;
        uint256 amountScaled = amount.rayDiv(index);
        if (amountScaled == 0) revert InvalidMintAmount();
        uint256 scaledBalance = _scaledBalances[onBehalfOf];
        uint256 balanceIncrease = _accrued(onBehalfOf, scaledBalance, index);
        _scaledBalances[onBehalfOf] = scaledBalance + amountScaled;
        _scaledTotalSupply += amountScaled;

        uint256 amountToMint = amount + balanceIncrease;
        emit Transfer(address(0), onBehalfOf, amountToMint);
        emit Mint(caller, onBehalfOf, amountToMint, balanceIncrease, index);
        return scaledBalance == 0;
    }

    /// @notice v3.5+: burns `scaledAmount` of `from`'s position and pays `amount` to `target`.
    /// @return Whether `from` holds nothing after (as Aave v3.5).
    function burn(address from, address target, uint256 amount, uint256 scaledAmount, uint256 index)
        external
        onlyPool
        returns (bool)
    {
        if (!TOKEN_MATH_V3_5) revert WrongRevisionCall();
        if (scaledAmount == 0) revert InvalidBurnAmount();
        uint256 scaledBalance = _scaledBalances[from];
        if (scaledBalance < scaledAmount) {
            revert InsufficientBalance(from, scaledBalance, scaledAmount);
        }
        uint256 nextBalance = (scaledBalance - scaledAmount).rayMulFloor(index);
        (uint256 previousBalance, uint256 balanceIncrease) = _accrued35(from, scaledBalance, index);
        unchecked {
            _scaledBalances[from] = scaledBalance - scaledAmount;
            _scaledTotalSupply -= scaledAmount;
        }
        if (nextBalance > previousBalance) {
            uint256 amountToMint = nextBalance - previousBalance;
            emit Transfer(address(0), from, amountToMint);
            emit Mint(from, from, amountToMint, balanceIncrease, index);
        } else {
            uint256 amountToBurn = previousBalance - nextBalance;
            emit Transfer(from, address(0), amountToBurn);
            emit Burn(from, target, amountToBurn, balanceIncrease, index);
        }
        if (!IBedUnderlying(UNDERLYING_ASSET_ADDRESS).transfer(target, amount)) revert TransferFailed();
        return scaledBalance == scaledAmount;
    }

    /// @notice v3.0–v3.4: burns `amount` (underlying units) of `from`'s position and pays it to
    /// `target`.
    function burn(address from, address target, uint256 amount, uint256 index) external onlyPool {
        if (TOKEN_MATH_V3_5) revert WrongRevisionCall();
        uint256 amountScaled = amount.rayDiv(index);
        if (amountScaled == 0) revert InvalidBurnAmount();
        uint256 scaledBalance = _scaledBalances[from];
        if (scaledBalance < amountScaled) revert InsufficientBalance(from, scaledBalance, amountScaled);
        uint256 balanceIncrease = _accrued(from, scaledBalance, index);
        unchecked {
            _scaledBalances[from] = scaledBalance - amountScaled;
            _scaledTotalSupply -= amountScaled;
        }

        if (balanceIncrease > amount) {
            uint256 amountToMint = balanceIncrease - amount;
            emit Transfer(address(0), from, amountToMint);
            emit Mint(from, from, amountToMint, balanceIncrease, index);
        } else {
            uint256 amountToBurn = amount - balanceIncrease;
            emit Transfer(from, address(0), amountToBurn);
            emit Burn(from, target, amountToBurn, balanceIncrease, index);
        }
        if (!IBedUnderlying(UNDERLYING_ASSET_ADDRESS).transfer(target, amount)) revert TransferFailed();
    }

    function _mintScaled35(address caller, address onBehalfOf, uint256 scaledAmount, uint256 index)
        private
        returns (bool)
    {
        if (scaledAmount == 0) revert InvalidMintAmount();
        uint256 scaledBalance = _scaledBalances[onBehalfOf];
        uint256 nextBalance = (scaledBalance + scaledAmount).rayMulFloor(index);
        (uint256 previousBalance, uint256 balanceIncrease) = _accrued35(onBehalfOf, scaledBalance, index);
        _scaledBalances[onBehalfOf] = scaledBalance + scaledAmount;
        _scaledTotalSupply += scaledAmount;

        uint256 amountToMint = nextBalance - previousBalance;
        emit Transfer(address(0), onBehalfOf, amountToMint);
        emit Mint(caller, onBehalfOf, amountToMint, balanceIncrease, index);
        return scaledBalance == 0;
    }

    /// @dev v3.5+: `user`'s floored balance at their last action and the interest since, floored
    /// at `index`; records `index` as their last.
    function _accrued35(address user, uint256 scaledBalance, uint256 index)
        private
        returns (uint256 previousBalance, uint256 balanceIncrease)
    {
        previousBalance = scaledBalance.rayMulFloor(_previousIndex[user]);
        balanceIncrease = scaledBalance.rayMulFloor(index) - previousBalance;
        _previousIndex[user] = index;
    }

    /// @dev Interest on `user`'s scaled balance since their last action; records `index` as it.
    function _accrued(address user, uint256 scaledBalance, uint256 index) private returns (uint256) {
        uint256 increase = scaledBalance.rayMul(index) - scaledBalance.rayMul(_previousIndex[user]);
        _previousIndex[user] = index;
        return increase;
    }

    function _normalizedIncome() private view returns (uint256) {
        return IBedReserveIncome(POOL).getReserveNormalizedIncome(UNDERLYING_ASSET_ADDRESS);
    }
}

/// @title TestAavePool
/// @notice Bed-only stand-in for the Aave v3 Pool over one reserve: `supply` and `withdraw` move
/// USDC from the caller to the aToken and back, as on Aave, and mint or burn scaled aTokens at the
/// reserve's liquidity index (a ray, 1e27 at deployment). The index only moves with the bed-only
/// `simulateYield` (Aave v3 also accrues it with time; a bed wants yield on demand), and
/// `getReserveNormalizedIncome` returns it. Unlike Aave, an unknown reserve reverts rather than
/// reading as 0.
///
/// The reserve has Aave v3's supply cap: `getConfiguration` packs it (whole tokens, 0 = none)
/// with the reserve's decimals as Aave does, the bed-only `setSupplyCap` sets it, and `supply`
/// reverts `SupplyCapExceeded` (Aave v3.4+'s error; earlier versions revert with the string
/// '51') when `(scaledTotalSupply + accruedToTreasury).rayMul(index) + amount` would pass
/// `supplyCap × 10^decimals` — Aave v3's check. `getReserveData` serves `accruedToTreasury` (the
/// treasury's scaled share, which counts against the cap) and the bed's other reserve state;
/// the bed has no borrowing, so its debt tokens, rates and strategy are zero and the variable
/// borrow index stays 1 ray. The treasury's share only grows with the bed-only
/// `simulateTreasuryAccrual` (on Aave it grows with borrow interest).
///
/// `POOL_REVISION` (Aave's public constant, here chosen at deployment) picks the accounting:
/// below 9, v3.0–v3.4 as above; from 9, Aave v3.5's SupplyLogic and TokenMath: a supply mints
/// `amount.rayDivFloor(index)` (0 reverts `InvalidAmount`) and the cap check is
/// `(scaledTotalSupply + scaled + accruedToTreasury).rayMulFloor(index) ≤ cap`; a withdrawal
/// burns `amount.rayDivCeil(index)`, or the whole scaled balance for `type(uint256).max` (which
/// pays `scaled.rayMulFloor(index)`), and reverts `NotEnoughAvailableUserBalance` when that is
/// more than the scaled balance.
contract TestAavePool {
    using BedRayMath for uint256;

    address public immutable asset;
    TestAToken public immutable aToken;
    uint256 public immutable POOL_REVISION;
    bool private immutable _v35;
    uint8 private immutable _decimals;
    uint256 private _liquidityIndex = BedRayMath.RAY;
    /// @dev Whole tokens; 0 = no cap.
    uint256 private _supplyCap;
    /// @dev Scaled, as Aave's `ReserveData.accruedToTreasury`.
    uint128 private _accruedToTreasury;
    uint40 private _lastUpdateTimestamp;

    event Supply(
        address indexed reserve,
        address user,
        address indexed onBehalfOf,
        uint256 amount,
        uint16 indexed referralCode
    );
    event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount);

    error UnknownReserve(address reserve);
    error InvalidAmount();
    error NotEnoughAvailableUserBalance(uint256 requested, uint256 available);
    error NoSupply();
    error TransferFailed();
    error SupplyCapExceeded();
    error InvalidSupplyCap();

    constructor(address asset_, uint256 poolRevision) {
        asset = asset_;
        POOL_REVISION = poolRevision;
        _v35 = poolRevision >= BedTokenMath.V3_5_POOL_REVISION;
        aToken = new TestAToken(asset_, _v35);
        _decimals = IBedUnderlying(asset_).decimals();
        _lastUpdateTimestamp = uint40(block.timestamp);
    }

    modifier knownReserve(address reserve) {
        if (reserve != asset) revert UnknownReserve(reserve);
        _;
    }

    function getReserveNormalizedIncome(address reserve)
        external
        view
        knownReserve(reserve)
        returns (uint256)
    {
        return _liquidityIndex;
    }

    function getConfiguration(address reserve)
        external
        view
        knownReserve(reserve)
        returns (BedReserveConfiguration.ReserveConfigurationMap memory)
    {
        return _configuration();
    }

    function getReserveData(address reserve)
        external
        view
        knownReserve(reserve)
        returns (BedReserveConfiguration.ReserveDataLegacy memory data)
    {
        data.configuration = _configuration();
        data.liquidityIndex = uint128(_liquidityIndex);
        data.variableBorrowIndex = uint128(BedRayMath.RAY);
        data.lastUpdateTimestamp = _lastUpdateTimestamp;
        data.aTokenAddress = address(aToken);
        data.accruedToTreasury = _accruedToTreasury;
    }

    function supply(address reserve, uint256 amount, address onBehalfOf, uint16 referralCode)
        external
        knownReserve(reserve)
    {
        if (amount == 0) revert InvalidAmount();
        uint256 index = _liquidityIndex;
        uint256 scaled = _v35 ? amount.rayDivFloor(index) : 0;
        if (_v35 && scaled == 0) revert InvalidAmount();
        uint256 cap = _supplyCap;
        uint256 scaledSupply = aToken.scaledTotalSupply() + _accruedToTreasury;
        uint256 usedAfter = _v35
            ? (scaledSupply + scaled).rayMulFloor(index)
            : scaledSupply.rayMul(index) + amount;
        if (cap != 0 && usedAfter > cap * 10 ** _decimals) revert SupplyCapExceeded();
        if (!IBedUnderlying(asset).transferFrom(msg.sender, address(aToken), amount)) {
            revert TransferFailed();
        }
        aToken.mint(msg.sender, onBehalfOf, _v35 ? scaled : amount, index);
        _lastUpdateTimestamp = uint40(block.timestamp);
        emit Supply(reserve, msg.sender, onBehalfOf, amount, referralCode);
    }

    /// @dev `amount == type(uint256).max` withdraws the whole balance, as on Aave.
    function withdraw(address reserve, uint256 amount, address to)
        external
        knownReserve(reserve)
        returns (uint256)
    {
        uint256 index = _liquidityIndex;
        uint256 value;
        if (_v35) {
            uint256 scaledBalance = aToken.scaledBalanceOf(msg.sender);
            bool all = amount == type(uint256).max;
            uint256 scaled = all ? scaledBalance : amount.rayDivCeil(index);
            value = all ? scaledBalance.rayMulFloor(index) : amount;
            if (scaled == 0) revert InvalidAmount();
            if (scaled > scaledBalance) revert NotEnoughAvailableUserBalance(scaled, scaledBalance);
            aToken.burn(msg.sender, to, value, scaled, index);
        } else {
            uint256 userBalance = aToken.scaledBalanceOf(msg.sender).rayMul(index);
            value = amount == type(uint256).max ? userBalance : amount;
            if (value == 0) revert InvalidAmount();
            if (value > userBalance) revert NotEnoughAvailableUserBalance(value, userBalance);
            aToken.burn(msg.sender, to, value, index);
        }
        _lastUpdateTimestamp = uint40(block.timestamp);
        emit Withdraw(reserve, msg.sender, to, value);
        return value;
    }

    /// @notice Bed only: `amount` of interest for the reserve's suppliers. Mints the underlying
    /// into the aToken and raises the liquidity index by amount / scaled supply (rounded down, so
    /// the aToken always holds what its balances are worth, up to rayMul's half-up dust). The
    /// treasury's accrued share is scaled supply too: it earns the index like any balance.
    function simulateYield(uint256 amount) external {
        uint256 scaledSupply = aToken.scaledTotalSupply() + _accruedToTreasury;
        if (scaledSupply == 0) revert NoSupply();
        IBedUnderlying(asset).mint(address(aToken), amount);
        _liquidityIndex += (amount * BedRayMath.RAY) / scaledSupply;
        _lastUpdateTimestamp = uint40(block.timestamp);
    }

    /// @notice Bed only: the reserve's supply cap in whole tokens (0 removes it), at most Aave's
    /// 2^36 − 1.
    function setSupplyCap(uint256 wholeTokens) external {
        if (wholeTokens > BedReserveConfiguration.MAX_SUPPLY_CAP) revert InvalidSupplyCap();
        _supplyCap = wholeTokens;
    }

    /// @notice Bed only: `amount` (underlying units) of interest owed to the treasury, as Aave
    /// accrues the reserve factor's share of borrow interest: adds `amount.rayDiv(index)` to
    /// `accruedToTreasury` and mints the underlying into the aToken, which backs it.
    function simulateTreasuryAccrual(uint256 amount) external {
        uint256 accrued = _accruedToTreasury + BedTokenMath.mintScaled(_v35, amount, _liquidityIndex);
        if (accrued > type(uint128).max) revert InvalidAmount();
        IBedUnderlying(asset).mint(address(aToken), amount);
        _accruedToTreasury = uint128(accrued);
        _lastUpdateTimestamp = uint40(block.timestamp);
    }

    function _configuration()
        private
        view
        returns (BedReserveConfiguration.ReserveConfigurationMap memory)
    {
        return BedReserveConfiguration.ReserveConfigurationMap(
            BedReserveConfiguration.supplyOnly(_decimals, _supplyCap)
        );
    }
}
