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
/// @notice Ray (1e27) multiplication and division rounding half up, with Aave v3's WadRayMath
/// results (checked arithmetic here: a bed's amounts never come near overflow).
library BedRayMath {
    uint256 internal constant RAY = 1e27;
    uint256 internal constant HALF_RAY = 0.5e27;

    function rayMul(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * b + HALF_RAY) / RAY;
    }

    function rayDiv(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * RAY + b / 2) / b;
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
/// @notice Bed-only Aave v3 aToken stand-in. Like Aave v3 it stores scaled balances (amount
/// rayDiv the liquidity index at the time) and rebases: `balanceOf = scaledBalanceOf rayMul
/// getReserveNormalizedIncome`. Its pool mints and burns with Aave v3's events: `Mint(caller,
/// onBehalfOf, value = amount + balanceIncrease, balanceIncrease, index)`, `Burn(from, target,
/// value = amount - balanceIncrease, balanceIncrease, index)` — or a `Mint` of
/// balanceIncrease - amount when the interest accrued since the user's last action exceeds the
/// amount burned — each with its `Transfer`. Not transferable (a bed never needs it).
contract TestAToken {
    using BedRayMath for uint256;

    string public constant name = "Test Aave USDC";
    string public constant symbol = "aTestUSDC";
    uint8 public constant decimals = 6;

    // Named as Aave v3's getters.
    address public immutable POOL;
    address public immutable UNDERLYING_ASSET_ADDRESS;

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

    constructor(address underlying) {
        POOL = msg.sender;
        UNDERLYING_ASSET_ADDRESS = underlying;
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
        return _scaledBalances[user].rayMul(_normalizedIncome());
    }

    function totalSupply() external view returns (uint256) {
        if (_scaledTotalSupply == 0) return 0;
        return _scaledTotalSupply.rayMul(_normalizedIncome());
    }

    /// @return Whether `onBehalfOf` held nothing before (as Aave v3).
    function mint(address caller, address onBehalfOf, uint256 amount, uint256 index)
        external
        onlyPool
        returns (bool)
    {
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

    /// @notice Burns `amount` (underlying units) of `from`'s position and pays it to `target`.
    function burn(address from, address target, uint256 amount, uint256 index) external onlyPool {
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
contract TestAavePool {
    using BedRayMath for uint256;

    address public immutable asset;
    TestAToken public immutable aToken;
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

    constructor(address asset_) {
        asset = asset_;
        aToken = new TestAToken(asset_);
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
        uint256 cap = _supplyCap;
        if (
            cap != 0 &&
            (aToken.scaledTotalSupply() + _accruedToTreasury).rayMul(_liquidityIndex) + amount >
            cap * 10 ** _decimals
        ) revert SupplyCapExceeded();
        if (!IBedUnderlying(asset).transferFrom(msg.sender, address(aToken), amount)) {
            revert TransferFailed();
        }
        aToken.mint(msg.sender, onBehalfOf, amount, _liquidityIndex);
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
        uint256 userBalance = aToken.scaledBalanceOf(msg.sender).rayMul(index);
        uint256 value = amount == type(uint256).max ? userBalance : amount;
        if (value == 0) revert InvalidAmount();
        if (value > userBalance) revert NotEnoughAvailableUserBalance(value, userBalance);
        aToken.burn(msg.sender, to, value, index);
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
        uint256 accrued = _accruedToTreasury + amount.rayDiv(_liquidityIndex);
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
