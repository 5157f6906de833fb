// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ICageAsset {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function approve(address spender, uint256 value) external returns (bool);
}

interface ICageVenue {
    function asset() external view returns (address);
    function deposit(uint256 assets, address receiver) external returns (uint256 shares);
    function withdraw(uint256 assets, address receiver, address owner) external returns (uint256 shares);
    function convertToAssets(uint256 shares) external view returns (uint256);
}

/// @title YieldCage
/// @notice Holds ERC-4626 venue positions for their owners and lets the owner (or the agent the
/// owner names) act on them with six actions only: ROUTE, EXIT, REBALANCE, HARVEST, COMPOUND and
/// AUTOPAY. There is no transfer and no arbitrary call. Every destination is locked: money goes
/// into an allowlisted venue, to an allowlisted payee, or back to the owner who deposited it.
/// @dev Policies are keyed by `msg.sender`, so only an owner can change its own policy; the
/// agent it names can act but never change the policy. The guardian can pause every action except
/// EXIT: a pause never traps money. Venue shares are held by the cage and counted per owner.
contract YieldCage {
    enum Action {
        ROUTE,
        EXIT,
        REBALANCE,
        HARVEST,
        COMPOUND,
        AUTOPAY
    }

    struct Policy {
        bool enabled;
        uint16 skimBps;
        address agent;
        address[] venues;
        address[] payees;
    }

    /// @notice The most a policy may skim from realised yield, in basis points.
    uint16 public constant MAX_SKIM_BPS = 1000;
    /// @notice The asset every allowlisted venue must hold (USDC).
    ICageAsset public immutable asset;
    /// @notice Where the skim on harvested and compounded yield goes.
    address public immutable treasury;
    /// @notice May pause and unpause; nothing else.
    address public immutable guardian;
    bool public paused;

    mapping(address owner => Policy) private _policies;
    mapping(address owner => mapping(address venue => bool)) public venueAllowed;
    mapping(address owner => mapping(address payee => bool)) public payeeAllowed;
    mapping(address owner => mapping(address venue => uint256)) public sharesOf;
    /// @notice Assets routed in and not yet taken out: what is above it is yield.
    mapping(address owner => mapping(address venue => uint256)) public principalOf;

    event ActionExecuted(
        bytes16 indexed planId,
        address indexed owner,
        Action indexed action,
        address venue,
        address destination,
        uint256 assets,
        uint256 skim
    );
    event PolicySet(
        bytes16 indexed planId,
        address indexed owner,
        bool enabled,
        uint16 skimBps,
        address agent,
        address[] venues,
        address[] payees
    );
    event PausedSet(bool paused);

    error NotOwnerOrAgent(address caller);
    error NotGuardian(address caller);
    error CageDisabled(address owner);
    error CagePaused();
    error VenueNotAllowed(address venue);
    error PayeeNotAllowed(address payee);
    error DestinationLocked(address destination, address owner);
    error SkimTooHigh(uint16 skimBps);
    error ZeroAmount();
    error InsufficientPosition(uint256 requested, uint256 available);
    error InsufficientYield(uint256 requested, uint256 available);
    error WrongVenueAsset(address venue);
    error TooManyEntries();
    error TransferFailed();

    constructor(address asset_, address treasury_, address guardian_) {
        asset = ICageAsset(asset_);
        treasury = treasury_;
        guardian = guardian_;
    }

    // ── Policy (owner only) ─────────────────────────────────────────────

    /// @notice Replaces the caller's policy. Only the owner itself can call it for its policy.
    function setPolicy(
        bytes16 planId,
        bool enabled,
        uint16 skimBps,
        address agent,
        address[] calldata venues,
        address[] calldata payees
    ) external {
        if (skimBps > MAX_SKIM_BPS) revert SkimTooHigh(skimBps);
        if (venues.length > 16 || payees.length > 16) revert TooManyEntries();
        Policy storage policy = _policies[msg.sender];
        for (uint256 i = 0; i < policy.venues.length; i++) venueAllowed[msg.sender][policy.venues[i]] = false;
        for (uint256 i = 0; i < policy.payees.length; i++) payeeAllowed[msg.sender][policy.payees[i]] = false;
        for (uint256 i = 0; i < venues.length; i++) {
            if (ICageVenue(venues[i]).asset() != address(asset)) revert WrongVenueAsset(venues[i]);
            venueAllowed[msg.sender][venues[i]] = true;
        }
        for (uint256 i = 0; i < payees.length; i++) payeeAllowed[msg.sender][payees[i]] = true;
        policy.enabled = enabled;
        policy.skimBps = skimBps;
        policy.agent = agent;
        policy.venues = venues;
        policy.payees = payees;
        emit PolicySet(planId, msg.sender, enabled, skimBps, agent, venues, payees);
    }

    function policyOf(address owner) external view returns (Policy memory) {
        return _policies[owner];
    }

    function setPaused(bool value) external {
        if (msg.sender != guardian) revert NotGuardian(msg.sender);
        paused = value;
        emit PausedSet(value);
    }

    // ── The six actions ─────────────────────────────────────────────────

    /// @notice Moves `assets` of the owner's USDC (approved to the cage) into an allowlisted venue.
    function route(bytes16 planId, address owner, address venue, uint256 assets) external {
        _live(owner);
        _venue(owner, venue);
        if (!asset.transferFrom(owner, address(this), assets)) revert TransferFailed();
        _deposit(owner, venue, assets);
        emit ActionExecuted(planId, owner, Action.ROUTE, venue, venue, assets, 0);
    }

    /// @notice Takes `assets` out of a venue to the owner. Works while paused or disabled.
    function exit(bytes16 planId, address owner, address venue, uint256 assets, address to) external {
        _caller(owner);
        if (to != owner) revert DestinationLocked(to, owner);
        _withdraw(owner, venue, assets, owner);
        emit ActionExecuted(planId, owner, Action.EXIT, venue, owner, assets, 0);
    }

    /// @notice Moves `assets` between two allowlisted venues.
    function rebalance(bytes16 planId, address owner, address fromVenue, address toVenue, uint256 assets)
        external
    {
        _live(owner);
        _venue(owner, fromVenue);
        _venue(owner, toVenue);
        _withdraw(owner, fromVenue, assets, address(this));
        _deposit(owner, toVenue, assets);
        emit ActionExecuted(planId, owner, Action.REBALANCE, fromVenue, toVenue, assets, 0);
    }

    /// @notice Realises `assets` of yield: the skim to the treasury, the rest to the owner.
    function harvest(bytes16 planId, address owner, address venue, uint256 assets, address to) external {
        _live(owner);
        if (to != owner) revert DestinationLocked(to, owner);
        uint256 skim = _takeYield(owner, venue, assets);
        if (!asset.transfer(owner, assets - skim)) revert TransferFailed();
        emit ActionExecuted(planId, owner, Action.HARVEST, venue, owner, assets, skim);
    }

    /// @notice Realises `assets` of yield and puts what is left after the skim back into the
    /// venue, counted as the owner's principal.
    function compound(bytes16 planId, address owner, address venue, uint256 assets, address to) external {
        _live(owner);
        if (to != owner) revert DestinationLocked(to, owner);
        _venue(owner, venue);
        uint256 skim = _takeYield(owner, venue, assets);
        _deposit(owner, venue, assets - skim);
        emit ActionExecuted(planId, owner, Action.COMPOUND, venue, owner, assets, skim);
    }

    /// @notice Pays `assets` from the owner's venue position to an allowlisted payee.
    function autopay(bytes16 planId, address owner, address venue, address payee, uint256 assets) external {
        _live(owner);
        if (!payeeAllowed[owner][payee]) revert PayeeNotAllowed(payee);
        _withdraw(owner, venue, assets, payee);
        emit ActionExecuted(planId, owner, Action.AUTOPAY, venue, payee, assets, 0);
    }

    /// @notice What the owner's position in `venue` is worth now, in assets.
    function assetsOf(address owner, address venue) public view returns (uint256) {
        uint256 shares = sharesOf[owner][venue];
        return shares == 0 ? 0 : ICageVenue(venue).convertToAssets(shares);
    }

    // ── Internals ───────────────────────────────────────────────────────

    function _caller(address owner) private view {
        address agent = _policies[owner].agent;
        if (msg.sender != owner && (agent == address(0) || msg.sender != agent)) {
            revert NotOwnerOrAgent(msg.sender);
        }
    }

    function _live(address owner) private view {
        _caller(owner);
        if (paused) revert CagePaused();
        if (!_policies[owner].enabled) revert CageDisabled(owner);
    }

    function _venue(address owner, address venue) private view {
        if (!venueAllowed[owner][venue]) revert VenueNotAllowed(venue);
    }

    function _deposit(address owner, address venue, uint256 assets) private {
        if (assets == 0) revert ZeroAmount();
        if (!asset.approve(venue, assets)) revert TransferFailed();
        sharesOf[owner][venue] += ICageVenue(venue).deposit(assets, address(this));
        principalOf[owner][venue] += assets;
    }

    function _withdraw(address owner, address venue, uint256 assets, address receiver) private {
        if (assets == 0) revert ZeroAmount();
        uint256 available = assetsOf(owner, venue);
        if (assets > available) revert InsufficientPosition(assets, available);
        sharesOf[owner][venue] -= ICageVenue(venue).withdraw(assets, receiver, address(this));
        uint256 principal = principalOf[owner][venue];
        principalOf[owner][venue] = assets >= principal ? 0 : principal - assets;
    }

    /// @dev Withdraws `assets` of yield into the cage, pays the skim, returns it.
    function _takeYield(address owner, address venue, uint256 assets) private returns (uint256 skim) {
        if (assets == 0) revert ZeroAmount();
        uint256 worth = assetsOf(owner, venue);
        uint256 principal = principalOf[owner][venue];
        uint256 yield_ = worth > principal ? worth - principal : 0;
        if (assets > yield_) revert InsufficientYield(assets, yield_);
        sharesOf[owner][venue] -= ICageVenue(venue).withdraw(assets, address(this), address(this));
        skim = (assets * _policies[owner].skimBps) / 10_000;
        if (skim > 0 && !asset.transfer(treasury, skim)) revert TransferFailed();
    }
}
