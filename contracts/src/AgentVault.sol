// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {ReentrancyGuardTransient} from "solady/utils/ReentrancyGuardTransient.sol";
import {FixedPointMathLib as M} from "solady/utils/FixedPointMathLib.sol";
import {Market} from "./Market.sol";

interface IAgentRegistry {
    function isActive(address vault) external view returns (bool);
    function nextBondId() external returns (uint256);
}

interface IMarkets {
    function markets(bytes32 id) external view returns (address);
}

/// @title AgentVault
/// @notice The capital an agent trades with. Stakers bond USDC for shares by buying into the vault as
/// it stands (1 USDC per share for the first bond; see bond); the agent's account, the manager, may only buy, sell
/// and claim in markets of the MarketFactory, so USDC leaves the vault only into those markets or to
/// an unbonding staker (and the performance fee to the manager).
/// Unbonding pays the bond's fraction of the vault without any price mark: settled markets are
/// claimed first, then the staker gets that fraction of the cash plus the proceeds of selling the
/// same fraction of every position in a trading market, and that fraction of the tokens of a market
/// that no longer trades but is not settled yet (closed, awaiting resolution). Nothing the manager or
/// the registry does can stop an unbond after its lockup.
/// Invariants (contracts/test/AgentVaultInvariant.t.sol): the bonds' shares sum to totalShares; an
/// unbond pays at most its fraction of the cash plus what its sales fetch; after its lockup an unbond
/// never reverts, whatever the state of the vault's markets.
/// The performance fee is charged at unbond on cash paid above the bond's high-water mark (its
/// principal at first, then the value per share last paid out).
contract AgentVault is ReentrancyGuardTransient {
    using SafeTransferLib for address;

    /// @dev Bounds the gas of an unbond, which visits every open position.
    uint256 public constant MAX_POSITIONS = 16;
    /// @dev A floor on every bond: makes a donation that inflates the share price cost about a
    /// million times what it could take from the next staker through rounding.
    uint256 public constant MIN_BOND = 1e6;
    uint256 private constant WAD = 1e18;

    address public registry;
    address public manager;
    address public usdc;
    address public marketFactory;
    uint16 public feeBps;
    uint32 public lockupSeconds;
    uint256 public totalShares;

    struct Bond {
        address staker;
        uint64 bondedAt;
        uint256 shares;
        /// @dev USDC staked for the shares still held (reduced pro rata by unbonds).
        uint256 principal;
        /// @dev The value of the shares still held above which the fee is due.
        uint256 highWater;
    }

    mapping(uint256 bondId => Bond) public bonds;
    address[] internal _openMarkets;
    mapping(address market => bool) public isOpen;

    event Bonded(uint256 indexed bondId, address indexed staker, uint256 amount, uint256 shares, uint256 totalShares);
    event Unbonded(
        uint256 indexed bondId,
        address indexed staker,
        uint256 shares,
        uint256 usdcPaid,
        uint256 fee,
        uint256 sharesLeft,
        uint256 principalLeft,
        uint256 highWaterLeft,
        uint256 totalShares
    );

    error AlreadyInitialized();
    error NotManager();
    error NotStaker();
    error UnknownBond();
    error UnknownMarket();
    error AgentInactive();
    error BondTooSmall();
    error NoAssetValue();
    error InvalidShares();
    error Locked(uint256 lockupUntil);
    error TooManyPositions();
    error NotSettled();
    error UnbondQuote(uint256 usdcPaid, uint256 fee);
    error BuyInCostExceeded(uint256 cost, uint256 amount);

    modifier onlyManager() {
        if (msg.sender != manager) revert NotManager();
        _;
    }

    /// @dev The implementation behind the clones can never be initialized itself.
    constructor() {
        registry = address(1);
    }

    function initialize(address manager_, address usdc_, address marketFactory_, uint256 feeBps_, uint256 lockup_)
        external
    {
        if (registry != address(0)) revert AlreadyInitialized();
        registry = msg.sender;
        manager = manager_;
        usdc = usdc_;
        marketFactory = marketFactory_;
        feeBps = uint16(feeBps_);
        lockupSeconds = uint32(lockup_);
    }

    // ---------------------------------------------------------------- bonds

    /// @notice Stakes at most `amount` USDC (the rest is refunded) for shares, buying into the vault as
    /// it stands rather than at a price mark: the staker pays the same fraction of the vault's cash
    /// (settled markets claimed first) and of the most that markets which no longer trade can pay at
    /// settlement (settlementCeiling), and buys the same fraction of every position in a
    /// trading market from the market itself. Moving a market's price before bonding therefore
    /// changes only how many shares `amount` buys, never what a share costs the existing stakers.
    function bond(uint256 amount) external nonReentrant returns (uint256 bondId, uint256 shares) {
        if (!IAgentRegistry(registry).isActive(address(this))) revert AgentInactive();
        if (amount < MIN_BOND) revert BondTooSmall();
        uint256 supply = totalShares;
        uint256 paid;
        usdc.safeTransferFrom(msg.sender, address(this), amount);
        if (supply == 0) {
            shares = amount;
            paid = amount;
        } else {
            (shares, paid) = _buyIn(amount, supply);
            if (paid > amount) revert BuyInCostExceeded(paid, amount);
            if (paid < amount) usdc.safeTransfer(msg.sender, amount - paid);
        }
        bondId = IAgentRegistry(registry).nextBondId();
        bonds[bondId] =
            Bond({staker: msg.sender, bondedAt: uint64(block.timestamp), shares: shares, principal: paid, highWater: paid});
        totalShares = supply + shares;
        emit Bonded(bondId, msg.sender, paid, shares, supply + shares);
    }

    /// @dev The shares `amount` buys and what they cost: the fraction of the fixed value in cash,
    /// rounded up, plus the same fraction of each trading position (rounded up) bought at the market.
    /// Shares are sized from the marks, then scaled down by the markets' own quotes: the cost of a
    /// purchase grows faster than its size (the curve is convex) and quoting each outcome alone
    /// overstates a purchase of several outcomes of one market, so the scaled purchase costs at most
    /// `amount`. `amount` is already in the vault and is not part of its value here.
    function _buyIn(uint256 amount, uint256 supply) private returns (uint256 shares, uint256 paid) {
        address[] memory markets = _openMarkets;
        for (uint256 i; i < markets.length; ++i) {
            if (_isSettled(markets[i])) _settle(markets[i]);
        }
        uint256 fixedValue = usdc.balanceOf(address(this)) - amount;
        uint256 marks = fixedValue;
        uint256 outcomesBought;
        for (uint256 i; i < markets.length; ++i) {
            if (!isOpen[markets[i]]) continue;
            marks += positionValue(markets[i]);
            if (Market(markets[i]).isTrading()) outcomesBought += Market(markets[i]).outcomeCount();
            else fixedValue += settlementCeiling(markets[i]);
        }
        if (marks == 0) revert NoAssetValue();
        shares = amount * supply / marks;
        uint256 quoted = _buyInCost(markets, fixedValue, shares, supply);
        // Each rounded-up part may cost a few units more than its share of the quote.
        uint256 slack = 4 * outcomesBought;
        if (quoted > amount) {
            if (amount <= slack) revert BondTooSmall();
            shares = shares * (amount - slack) / quoted;
        }
        if (shares == 0) revert BondTooSmall();
        paid = M.mulDivUp(fixedValue, shares, supply);
        for (uint256 i; i < markets.length; ++i) {
            if (isOpen[markets[i]] && Market(markets[i]).isTrading()) paid += _buyPart(markets[i], shares, supply);
        }
    }

    /// @dev What `_buyIn` would pay for `shares`, each outcome quoted on its own.
    function _buyInCost(address[] memory markets, uint256 fixedValue, uint256 shares, uint256 supply)
        private
        view
        returns (uint256 cost)
    {
        cost = M.mulDivUp(fixedValue, shares, supply);
        for (uint256 i; i < markets.length; ++i) {
            address market = markets[i];
            if (!isOpen[market] || !Market(market).isTrading()) continue;
            uint256 n = Market(market).outcomeCount();
            for (uint256 outcome; outcome < n; ++outcome) {
                uint256 part = M.mulDivUp(Market(market).balanceOf(address(this), outcome), shares, supply);
                if (part == 0) continue;
                (uint256 usdcIn,,) = Market(market).quoteBuyTokens(outcome, part);
                cost += usdcIn;
            }
        }
    }

    /// @dev Buys `shares / supply` (rounded up) of each outcome the vault holds in a trading market.
    function _buyPart(address market, uint256 shares, uint256 supply) private returns (uint256 cost) {
        uint256 n = Market(market).outcomeCount();
        usdc.safeApprove(market, type(uint256).max);
        for (uint256 outcome; outcome < n; ++outcome) {
            uint256 part = M.mulDivUp(Market(market).balanceOf(address(this), outcome), shares, supply);
            if (part != 0) cost += Market(market).buyTokens(outcome, part, type(uint256).max);
        }
        usdc.safeApprove(market, 0);
    }

    /// @notice Redeems `shares` of the caller's bond once its lockup has passed (see the contract's
    /// notice for what is paid).
    function unbond(uint256 bondId, uint256 shares) external nonReentrant returns (uint256 usdcPaid, uint256 fee) {
        Bond storage held = bonds[bondId];
        if (held.staker == address(0)) revert UnknownBond();
        if (held.staker != msg.sender) revert NotStaker();
        uint256 until = uint256(held.bondedAt) + lockupSeconds;
        if (block.timestamp < until) revert Locked(until);
        return _unbond(bondId, shares);
    }

    /// @notice What unbonding `shares` of the bond would pay now, lockup aside: runs the unbond and
    /// reverts with UnbondQuote(usdcPaid, fee). Call it with eth_call.
    function quoteUnbond(uint256 bondId, uint256 shares) external nonReentrant {
        if (bonds[bondId].staker == address(0)) revert UnknownBond();
        (uint256 usdcPaid, uint256 fee) = _unbond(bondId, shares);
        revert UnbondQuote(usdcPaid, fee);
    }

    function _unbond(uint256 bondId, uint256 shares) private returns (uint256 usdcPaid, uint256 fee) {
        Bond storage held = bonds[bondId];
        uint256 bondShares = held.shares;
        if (shares == 0 || shares > bondShares) revert InvalidShares();
        uint256 supply = totalShares;

        address[] memory markets = _openMarkets;
        for (uint256 i; i < markets.length; ++i) {
            if (_isSettled(markets[i])) _settle(markets[i]);
        }
        uint256 gross = usdc.balanceOf(address(this)) * shares / supply;

        uint256 principalLeft = held.principal - held.principal * shares / bondShares;
        uint256 highWaterPart = held.highWater * shares / bondShares;
        held.shares = bondShares - shares;
        held.principal = principalLeft;
        totalShares = supply - shares;

        for (uint256 i; i < markets.length; ++i) {
            if (isOpen[markets[i]]) gross += _redeemPart(markets[i], shares, supply, held.staker);
        }

        if (gross > highWaterPart) {
            fee = (gross - highWaterPart) * feeBps / 10_000;
            held.highWater = gross * (bondShares - shares) / shares;
        } else {
            held.highWater -= highWaterPart;
        }
        usdcPaid = gross - fee;
        emit Unbonded(
            bondId, held.staker, shares, usdcPaid, fee, held.shares, principalLeft, held.highWater, supply - shares
        );
        if (fee != 0) usdc.safeTransfer(manager, fee);
        if (usdcPaid != 0) usdc.safeTransfer(held.staker, usdcPaid);
    }

    /// @dev Sells `shares / supply` of each outcome held in a trading market and returns the USDC
    /// received; a market that no longer trades pays that part in kind to `staker`.
    function _redeemPart(address market, uint256 shares, uint256 supply, address staker)
        private
        returns (uint256 proceeds)
    {
        bool trading = Market(market).isTrading();
        uint256 n = Market(market).outcomeCount();
        for (uint256 outcome; outcome < n; ++outcome) {
            uint256 part = Market(market).balanceOf(address(this), outcome) * shares / supply;
            if (part == 0) continue;
            if (trading) proceeds += Market(market).sell(outcome, part, 0);
            else Market(market).safeTransferFrom(address(this), staker, outcome, part, "");
        }
        _untrackIfEmpty(market);
    }

    // ---------------------------------------------------------------- trading (the manager)

    function buy(bytes32 marketId, uint256 outcome, uint256 usdcAmount, uint256 minTokensOut)
        external
        onlyManager
        nonReentrant
        returns (uint256 tokensOut)
    {
        address market = _market(marketId);
        if (!isOpen[market]) {
            if (_openMarkets.length == MAX_POSITIONS) revert TooManyPositions();
            isOpen[market] = true;
            _openMarkets.push(market);
        }
        usdc.safeApprove(market, usdcAmount);
        tokensOut = Market(market).buy(outcome, usdcAmount, minTokensOut);
    }

    function sell(bytes32 marketId, uint256 outcome, uint256 tokenAmount, uint256 minUsdcOut)
        external
        onlyManager
        nonReentrant
        returns (uint256 usdcOut)
    {
        address market = _market(marketId);
        usdcOut = Market(market).sell(outcome, tokenAmount, minUsdcOut);
        _untrackIfEmpty(market);
    }

    /// @notice Redeems the vault's tokens of a settled market and closes the position.
    function claim(bytes32 marketId) external onlyManager nonReentrant returns (uint256 usdcPaid) {
        address market = _market(marketId);
        if (!_isSettled(market)) revert NotSettled();
        return _settle(market);
    }

    // ---------------------------------------------------------------- views

    /// @notice Cash plus every open position marked at its market's current prices (a winning token
    /// at 1 USDC, a voided market's tokens at 1/n each, rounded down per position).
    function netAssetValue() public view returns (uint256 nav) {
        nav = usdc.balanceOf(address(this));
        for (uint256 i; i < _openMarkets.length; ++i) {
            nav += positionValue(_openMarkets[i]);
        }
    }

    function positionValue(address market) public view returns (uint256 value) {
        Market.Status status = Market(market).status();
        if (status == Market.Status.Resolved) {
            return Market(market).balanceOf(address(this), Market(market).resolvedOutcome());
        }
        uint256 n = Market(market).outcomeCount();
        if (status == Market.Status.Voided) {
            uint256 tokens;
            for (uint256 outcome; outcome < n; ++outcome) {
                tokens += Market(market).balanceOf(address(this), outcome);
            }
            return tokens / n;
        }
        uint256[] memory prices = Market(market).prices();
        for (uint256 outcome; outcome < n; ++outcome) {
            value += Market(market).balanceOf(address(this), outcome) * prices[outcome] / WAD;
        }
    }

    /// @notice The most the vault's tokens of `market` can pay once it settles: its largest holding of
    /// one outcome (a void pays less). A bond pays its fraction of this for a market that no longer
    /// trades but is not settled yet, so that knowing the outcome before anyone settles it cannot buy
    /// a winning position below its worth.
    function settlementCeiling(address market) public view returns (uint256 ceiling) {
        uint256 n = Market(market).outcomeCount();
        for (uint256 outcome; outcome < n; ++outcome) {
            uint256 held = Market(market).balanceOf(address(this), outcome);
            if (held > ceiling) ceiling = held;
        }
    }

    /// @notice A bond's share of the net asset value, and the fee an unbond at that value would owe.
    function bondValue(uint256 bondId) external view returns (uint256 value, uint256 fee) {
        Bond storage held = bonds[bondId];
        if (held.shares == 0) return (0, 0);
        uint256 gross = netAssetValue() * held.shares / totalShares;
        if (gross > held.highWater) fee = (gross - held.highWater) * feeBps / 10_000;
        value = gross - fee;
    }

    function openMarkets() external view returns (address[] memory) {
        return _openMarkets;
    }

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC1155BatchReceived.selector;
    }

    // ---------------------------------------------------------------- internals

    function _market(bytes32 marketId) private view returns (address market) {
        market = IMarkets(marketFactory).markets(marketId);
        if (market == address(0)) revert UnknownMarket();
    }

    function _isSettled(address market) private view returns (bool) {
        Market.Status status = Market(market).status();
        return status == Market.Status.Resolved || status == Market.Status.Voided;
    }

    /// @dev Claims what the vault can claim in a settled market (losing tokens claim nothing) and
    /// closes the position.
    function _settle(address market) private returns (uint256 usdcPaid) {
        bool claimable;
        uint256 n = Market(market).outcomeCount();
        if (Market(market).status() == Market.Status.Resolved) {
            claimable = Market(market).balanceOf(address(this), Market(market).resolvedOutcome()) != 0;
        } else {
            for (uint256 outcome; outcome < n && !claimable; ++outcome) {
                claimable = Market(market).balanceOf(address(this), outcome) != 0;
            }
        }
        if (claimable) usdcPaid = Market(market).claim();
        _untrack(market);
    }

    function _untrackIfEmpty(address market) private {
        uint256 n = Market(market).outcomeCount();
        for (uint256 outcome; outcome < n; ++outcome) {
            if (Market(market).balanceOf(address(this), outcome) != 0) return;
        }
        _untrack(market);
    }

    function _untrack(address market) private {
        if (!isOpen[market]) return;
        isOpen[market] = false;
        uint256 last = _openMarkets.length - 1;
        for (uint256 i; i <= last; ++i) {
            if (_openMarkets[i] == market) {
                _openMarkets[i] = _openMarkets[last];
                _openMarkets.pop();
                return;
            }
        }
    }

    function _useTransientReentrancyGuardOnlyOnMainnet() internal pure override returns (bool) {
        return false;
    }
}
