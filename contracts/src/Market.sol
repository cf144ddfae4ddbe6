// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC1155} from "solady/tokens/ERC1155.sol";
import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {ReentrancyGuardTransient} from "solady/utils/ReentrancyGuardTransient.sol";
import {FixedPointMathLib as M} from "solady/utils/FixedPointMathLib.sol";
import {LMSR} from "./LMSR.sol";

interface IMarketFactory {
    function isResolver(address account) external view returns (bool);
    function treasury() external view returns (address);
}

/// @title Market
/// @notice One prediction market priced by LMSR. Positions are ERC-1155 balances kept by this
/// contract (token id = outcome index, 6 decimals; one winning token redeems for 1 USDC). Deployed
/// by MarketFactory as a CREATE2 clone salted by keccak256(slug), then initialized once.
/// Solvency: the market's USDC always covers C(q) ≥ max q_i, because the house funds C(0) = b·ln n
/// at creation, a buy never gives more tokens than its net spend pays for under C, a sell never pays
/// more than C falls, and every rounding goes the market's way.
contract Market is ERC1155, ReentrancyGuardTransient {
    using SafeTransferLib for address;

    enum Status {
        Uninitialized,
        Active,
        Closed,
        Resolved,
        Voided
    }

    uint256 public constant MAX_OUTCOMES = 8;
    uint256 public constant MAX_FEE_BPS = 1000;
    /// @dev A single trade may spend at most this many b: keeps exp(spend/b) far from overflow.
    uint256 public constant MAX_SPEND_PER_B = 40;

    address public factory;
    address public usdc;
    uint64 public closesAt;
    uint16 public feeBps;
    uint8 public outcomeCount;
    Status public status;
    uint8 public resolvedOutcome;
    uint128 public b;
    /// @dev Outstanding tokens per outcome as LMSR sees them (minted by buys minus burned by sells).
    uint128[MAX_OUTCOMES] internal _q;

    event Trade(
        address indexed trader,
        uint256 indexed outcome,
        bool isBuy,
        uint256 usdcAmount,
        uint256 tokenAmount,
        uint256 fee,
        uint256[] pricesAfter
    );
    event Closed(uint256 closedAt);
    event Resolved(uint256 indexed outcome);
    event Voided();
    event Claimed(address indexed holder, uint256 usdcPaid, uint256 tokensBurned);

    error AlreadyInitialized();
    error NotFactory();
    error NotResolver();
    error TradingClosed();
    error InvalidOutcome();
    error ZeroAmount();
    error TradeTooLarge();
    error Slippage(uint256 amountOut, uint256 minAmountOut);
    error InsufficientTokens();
    error QuoteFailed();
    error NotSettled();
    error AlreadySettled();
    error NothingToClaim();

    modifier onlyResolver() {
        if (!IMarketFactory(factory).isResolver(msg.sender)) revert NotResolver();
        _;
    }

    /// @dev The implementation behind the clones can never be initialized itself.
    constructor() {
        status = Status.Voided;
    }

    function initialize(address usdc_, uint256 outcomeCount_, uint256 b_, uint256 feeBps_, uint256 closesAt_) external {
        if (status != Status.Uninitialized) revert AlreadyInitialized();
        factory = msg.sender;
        usdc = usdc_;
        outcomeCount = uint8(outcomeCount_);
        b = uint128(b_);
        feeBps = uint16(feeBps_);
        closesAt = uint64(closesAt_);
        status = Status.Active;
    }

    // ---------------------------------------------------------------- trading

    /// @notice Spends `usdcAmount` (fee included) on tokens of `outcome`; reverts with Slippage when
    /// fewer than `minTokensOut` would be received.
    function buy(uint256 outcome, uint256 usdcAmount, uint256 minTokensOut)
        external
        nonReentrant
        returns (uint256 tokensOut)
    {
        _requireTrading(outcome);
        uint256 fee;
        uint256[] memory pricesAfter;
        (tokensOut, fee, pricesAfter) = _quoteBuy(outcome, usdcAmount);
        if (tokensOut < minTokensOut) revert Slippage(tokensOut, minTokensOut);

        usdc.safeTransferFrom(msg.sender, address(this), usdcAmount);
        if (fee != 0) usdc.safeTransfer(IMarketFactory(factory).treasury(), fee);
        _q[outcome] += uint128(tokensOut);
        emit Trade(msg.sender, outcome, true, usdcAmount, tokensOut, fee, pricesAfter);
        _mint(msg.sender, outcome, tokensOut, "");
    }

    /// @notice Buys exactly `tokenAmount` tokens of `outcome` for what the curve asks plus the fee;
    /// reverts with Slippage when that exceeds `maxUsdcIn`. A vault's new staker buys its share of
    /// the vault's positions this way.
    function buyTokens(uint256 outcome, uint256 tokenAmount, uint256 maxUsdcIn)
        external
        nonReentrant
        returns (uint256 usdcIn)
    {
        _requireTrading(outcome);
        uint256 fee;
        uint256[] memory pricesAfter;
        (usdcIn, fee, pricesAfter) = _quoteBuyTokens(outcome, tokenAmount);
        if (usdcIn > maxUsdcIn) revert Slippage(usdcIn, maxUsdcIn);

        usdc.safeTransferFrom(msg.sender, address(this), usdcIn);
        if (fee != 0) usdc.safeTransfer(IMarketFactory(factory).treasury(), fee);
        _q[outcome] += uint128(tokenAmount);
        emit Trade(msg.sender, outcome, true, usdcIn, tokenAmount, fee, pricesAfter);
        _mint(msg.sender, outcome, tokenAmount, "");
    }

    /// @notice Sells `tokenAmount` tokens of `outcome` back to the market; reverts with Slippage when
    /// the USDC received (after the fee) would be below `minUsdcOut`.
    function sell(uint256 outcome, uint256 tokenAmount, uint256 minUsdcOut)
        external
        nonReentrant
        returns (uint256 usdcOut)
    {
        _requireTrading(outcome);
        if (balanceOf(msg.sender, outcome) < tokenAmount) revert InsufficientTokens();
        uint256 fee;
        uint256[] memory pricesAfter;
        (usdcOut, fee, pricesAfter) = _quoteSell(outcome, tokenAmount);
        if (usdcOut < minUsdcOut) revert Slippage(usdcOut, minUsdcOut);

        _burn(msg.sender, outcome, tokenAmount);
        _q[outcome] -= uint128(tokenAmount);
        emit Trade(msg.sender, outcome, false, usdcOut, tokenAmount, fee, pricesAfter);
        if (fee != 0) usdc.safeTransfer(IMarketFactory(factory).treasury(), fee);
        if (usdcOut != 0) usdc.safeTransfer(msg.sender, usdcOut);
    }

    /// @notice Redeems the caller's tokens once the market is settled: each winning token for
    /// 1 USDC, or after a void every token for 1/n USDC.
    function claim() external nonReentrant returns (uint256 usdcPaid) {
        uint256 tokensBurned;
        if (status == Status.Resolved) {
            tokensBurned = balanceOf(msg.sender, resolvedOutcome);
            if (tokensBurned == 0) revert NothingToClaim();
            _burn(msg.sender, resolvedOutcome, tokensBurned);
            usdcPaid = tokensBurned;
        } else if (status == Status.Voided) {
            uint256 n = outcomeCount;
            for (uint256 i; i < n; ++i) {
                uint256 held = balanceOf(msg.sender, i);
                if (held == 0) continue;
                _burn(msg.sender, i, held);
                tokensBurned += held;
            }
            if (tokensBurned == 0) revert NothingToClaim();
            usdcPaid = tokensBurned / n;
        } else {
            revert NotSettled();
        }
        emit Claimed(msg.sender, usdcPaid, tokensBurned);
        if (usdcPaid != 0) usdc.safeTransfer(msg.sender, usdcPaid);
    }

    // ---------------------------------------------------------------- lifecycle

    function close() external onlyResolver {
        if (status != Status.Active) revert TradingClosed();
        status = Status.Closed;
        emit Closed(block.timestamp);
    }

    /// @notice Sets the winning outcome; allowed once trading has stopped (closed early or past
    /// closesAt).
    function resolve(uint256 outcome) external onlyResolver {
        if (outcome >= outcomeCount) revert InvalidOutcome();
        if (status == Status.Active && block.timestamp < closesAt) revert NotSettled();
        if (status == Status.Resolved || status == Status.Voided) revert AlreadySettled();
        status = Status.Resolved;
        resolvedOutcome = uint8(outcome);
        emit Resolved(outcome);
    }

    /// @notice Cancels the market at any time before resolution: every token then redeems at 1/n.
    function void() external onlyResolver {
        if (status == Status.Resolved || status == Status.Voided) revert AlreadySettled();
        status = Status.Voided;
        emit Voided();
    }

    // ---------------------------------------------------------------- views

    function isTrading() public view returns (bool) {
        return status == Status.Active && block.timestamp < closesAt;
    }

    function quantities() public view returns (uint256[] memory q) {
        uint256 n = outcomeCount;
        q = new uint256[](n);
        for (uint256 i; i < n; ++i) q[i] = _q[i];
    }

    /// @notice Current price of every outcome in WAD (1e18 = 1 USDC per token).
    function prices() external view returns (uint256[] memory) {
        return LMSR.prices(quantities(), b);
    }

    function quoteBuy(uint256 outcome, uint256 usdcAmount)
        external
        view
        returns (uint256 tokensOut, uint256 fee, uint256[] memory pricesAfter)
    {
        if (outcome >= outcomeCount) revert InvalidOutcome();
        return _quoteBuy(outcome, usdcAmount);
    }

    function quoteBuyTokens(uint256 outcome, uint256 tokenAmount)
        external
        view
        returns (uint256 usdcIn, uint256 fee, uint256[] memory pricesAfter)
    {
        if (outcome >= outcomeCount) revert InvalidOutcome();
        return _quoteBuyTokens(outcome, tokenAmount);
    }

    function quoteSell(uint256 outcome, uint256 tokenAmount)
        external
        view
        returns (uint256 usdcOut, uint256 fee, uint256[] memory pricesAfter)
    {
        if (outcome >= outcomeCount) revert InvalidOutcome();
        return _quoteSell(outcome, tokenAmount);
    }

    function uri(uint256) public pure override returns (string memory) {
        return "";
    }

    // ---------------------------------------------------------------- internals

    function _requireTrading(uint256 outcome) private view {
        if (!isTrading()) revert TradingClosed();
        if (outcome >= outcomeCount) revert InvalidOutcome();
    }

    function _quoteBuy(uint256 outcome, uint256 usdcAmount)
        private
        view
        returns (uint256 tokensOut, uint256 fee, uint256[] memory pricesAfter)
    {
        if (usdcAmount == 0) revert ZeroAmount();
        uint256 b_ = b;
        fee = M.mulDivUp(usdcAmount, feeBps, 10_000);
        uint256 spend = usdcAmount - fee;
        if (spend > MAX_SPEND_PER_B * b_) revert TradeTooLarge();

        uint256[] memory q = quantities();
        uint256 costBefore = LMSR.cost(q, b_, false);
        tokensOut = LMSR.tokensForSpend(q, b_, outcome, spend);
        if (tokensOut == 0) revert ZeroAmount();
        q[outcome] += tokensOut;
        if (q[outcome] > type(uint128).max) revert TradeTooLarge();
        (uint256[] memory e, uint256 sum) = LMSR.terms(q, b_);
        // The closed form is shaded; this exact check is what guarantees solvency.
        if (LMSR.costFromSum(q, b_, sum, true) - costBefore > spend) revert QuoteFailed();
        pricesAfter = LMSR.pricesFromTerms(e, sum);
    }

    /// @dev The curve's exact cost (C after rounded up, C before rounded down: against the buyer),
    /// plus a fee that makes it the same share of what is paid as a buy's fee.
    function _quoteBuyTokens(uint256 outcome, uint256 tokenAmount)
        private
        view
        returns (uint256 usdcIn, uint256 fee, uint256[] memory pricesAfter)
    {
        if (tokenAmount == 0) revert ZeroAmount();
        uint256 b_ = b;
        uint256[] memory q = quantities();
        uint256 costBefore = LMSR.cost(q, b_, false);
        q[outcome] += tokenAmount;
        if (q[outcome] > type(uint128).max) revert TradeTooLarge();
        (uint256[] memory e, uint256 sum) = LMSR.terms(q, b_);
        uint256 spend = LMSR.costFromSum(q, b_, sum, true) - costBefore;
        if (spend > MAX_SPEND_PER_B * b_) revert TradeTooLarge();
        fee = M.mulDivUp(spend, feeBps, 10_000 - feeBps);
        usdcIn = spend + fee;
        pricesAfter = LMSR.pricesFromTerms(e, sum);
    }

    function _quoteSell(uint256 outcome, uint256 tokenAmount)
        private
        view
        returns (uint256 usdcOut, uint256 fee, uint256[] memory pricesAfter)
    {
        if (tokenAmount == 0) revert ZeroAmount();
        uint256 b_ = b;
        uint256[] memory q = quantities();
        if (tokenAmount > q[outcome]) revert InsufficientTokens();
        uint256 costBefore = LMSR.cost(q, b_, false);
        q[outcome] -= tokenAmount;
        (uint256[] memory e, uint256 sum) = LMSR.terms(q, b_);
        uint256 costAfter = LMSR.costFromSum(q, b_, sum, true);
        uint256 gross = costBefore > costAfter ? costBefore - costAfter : 0;
        fee = M.mulDivUp(gross, feeBps, 10_000);
        if (fee > gross) fee = gross;
        usdcOut = gross - fee;
        pricesAfter = LMSR.pricesFromTerms(e, sum);
    }

    function _useTransientReentrancyGuardOnlyOnMainnet() internal pure override returns (bool) {
        return false;
    }
}
