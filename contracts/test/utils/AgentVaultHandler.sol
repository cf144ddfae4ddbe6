// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "./Test.sol";
import {AgentRegistry} from "../../src/AgentRegistry.sol";
import {AgentVault} from "../../src/AgentVault.sol";
import {Market} from "../../src/Market.sol";
import {TestUSDC} from "../../src/TestUSDC.sol";

/// @dev Actions of stakers, the agent, an outside trader and the resolver on one vault, for the
/// invariant runner (AgentVaultInvariant.t.sol). Every unbond is checked against what the vault's
/// notice promises, computed here before the call; the ghost sums follow every USDC the vault moves.
contract AgentVaultHandler is Test {
    struct Setup {
        AgentRegistry registry;
        AgentVault vault;
        TestUSDC usdc;
        Market[] markets;
        bytes32[] ids;
        address[] actors;
        address outsider;
        address resolver;
        address treasury;
    }

    /// @dev The state an unbond is checked against, read just before it.
    struct Before {
        uint256 supply;
        uint256 claims;
        uint256 cash;
        uint256 marketSide;
        uint256 staker;
        uint256 manager;
    }

    /// @dev The vault a bond is checked against, read just before it; per market `tokens` holds the
    /// vault's balance of each outcome; `cash` counts the claims the bond will make first, `marks`
    /// values every unsettled position at its prices, `closedValue` those that no longer trade.
    struct BondBefore {
        uint256 supply;
        uint256 claims;
        uint256 cash;
        uint256 closedValue;
        uint256 marks;
        uint256 marketSide;
        uint256 staker;
        uint256[][] tokens;
        bool[] trading;
    }

    AgentRegistry public immutable registry;
    AgentVault public immutable vault;
    TestUSDC public immutable usdc;
    address public immutable manager;
    address public immutable outsider;
    address public immutable resolver;
    address public immutable treasury;
    Market[] public markets;
    bytes32[] public ids;
    address[] public actors;
    uint256[] public bondIds;

    /// @dev USDC into the vault from stakers (what bonds paid: their amounts less the refunds), out
    /// to stakers and the manager, and net from markets (a bond's purchases included).
    uint256 public bondedIn;
    uint256 public paidOut;
    uint256 public feesOut;
    int256 public fromMarkets;
    mapping(address actor => uint256) public actorFunding;

    uint256 public payMismatches;
    uint256 public quoteMismatches;
    uint256 public inKindMismatches;
    uint256 public bondMismatches;
    uint256 public dilutions;
    uint256 public tooLargeRefusals;

    constructor(Setup memory s) {
        registry = s.registry;
        vault = s.vault;
        usdc = s.usdc;
        manager = s.vault.manager();
        outsider = s.outsider;
        resolver = s.resolver;
        treasury = s.treasury;
        for (uint256 i; i < s.markets.length; ++i) {
            markets.push(s.markets[i]);
            ids.push(s.ids[i]);
        }
        for (uint256 i; i < s.actors.length; ++i) {
            actors.push(s.actors[i]);
            actorFunding[s.actors[i]] = usdc.balanceOf(s.actors[i]);
        }
    }

    // ------------------------------------------------------------ stakers

    /// @dev A bond is checked against the vault just before it: it pays at most the amount and the
    /// staker is refunded exactly the rest; a first bond mints shares = amount; a later one pays its
    /// fraction of the cash (and of closed markets at their marks) and buys the same fraction of every
    /// trading position, so no share held before holds less cash or fewer tokens after.
    function bond(uint256 actorSeed, uint256 amount) external {
        if (!registry.isActive(address(vault))) return;
        address actor = actors[actorSeed % actors.length];
        amount = bound(amount, 1e6, 10_000e6);
        BondBefore memory before = _beforeBond(actor);
        vm.prank(actor);
        try vault.bond(amount) returns (uint256 bondId, uint256 shares) {
            uint256 paid = before.staker - usdc.balanceOf(actor);
            _checkBond(before, amount, bondId, shares, paid);
            bondIds.push(bondId);
            bondedIn += paid;
            fromMarkets += int256(before.marketSide) - int256(_marketSide());
            actorFunding[actor] -= paid;
        } catch (bytes memory reason) {
            _checkBondRefusal(reason, before, amount);
        }
    }

    /// @dev Waits out the lockup if needed, then unbonds for real: a revert fails the run.
    function unbond(uint256 bondSeed, uint256 sharesSeed) external {
        (uint256 bondId, address staker, uint256 held) = _pickBond(bondSeed);
        if (held == 0) return;
        (, uint64 bondedAt,,,) = vault.bonds(bondId);
        uint256 until = uint256(bondedAt) + vault.lockupSeconds();
        if (block.timestamp < until) vm.warp(until);
        uint256 shares = bound(sharesSeed, 1, held);

        // What the vault's notice promises: its fraction of the cash once settled markets are
        // claimed, plus what selling its fraction of trading positions fetches, plus its fraction of
        // the tokens of markets that no longer trade, in kind.
        Before memory before;
        before.supply = vault.totalShares();
        before.claims = _claimable();
        before.cash = usdc.balanceOf(address(vault)) + before.claims;
        before.marketSide = _marketSide();
        before.staker = usdc.balanceOf(staker);
        before.manager = usdc.balanceOf(manager);
        uint256[][] memory inKind = _inKindParts(shares, before.supply, staker);
        (uint256 quoted, uint256 quotedFee) = _quote(bondId, shares);

        vm.prank(staker);
        (uint256 paid, uint256 fee) = vault.unbond(bondId, shares);

        uint256 fromSales = before.marketSide - _marketSide() - before.claims;
        if (paid + fee != before.cash * shares / before.supply + fromSales) payMismatches++;
        if (usdc.balanceOf(staker) != before.staker + paid || usdc.balanceOf(manager) != before.manager + fee) {
            payMismatches++;
        }
        if (paid != quoted || fee != quotedFee) quoteMismatches++;
        inKindMismatches += _checkInKind(inKind, staker);
        paidOut += paid;
        feesOut += fee;
        fromMarkets += int256(before.marketSide) - int256(_marketSide());
        actorFunding[staker] += paid;
    }

    function warp(uint256 seconds_) external {
        vm.warp(block.timestamp + bound(seconds_, 0, 1 days));
    }

    // ------------------------------------------------------------ the agent

    function buy(uint256 marketSeed, uint256 outcome, uint256 amount) external {
        uint256 m = marketSeed % markets.length;
        Market market = markets[m];
        uint256 cash = usdc.balanceOf(address(vault));
        if (!market.isTrading() || cash < 1e6) return;
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        uint256 cap = 5 * uint256(market.b());
        amount = bound(amount, 1e6, cash < cap ? cash : cap);
        uint256 marketSide = _marketSide();
        vm.prank(manager);
        try vault.buy(ids[m], outcome, amount, 0) {}
        catch (bytes memory reason) {
            _allowQuoteFailed(reason);
        }
        fromMarkets += int256(marketSide) - int256(_marketSide());
    }

    function sell(uint256 marketSeed, uint256 outcome, uint256 amount) external {
        uint256 m = marketSeed % markets.length;
        Market market = markets[m];
        if (!market.isTrading()) return;
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        uint256 held = market.balanceOf(address(vault), outcome);
        if (held == 0) return;
        uint256 marketSide = _marketSide();
        vm.prank(manager);
        vault.sell(ids[m], outcome, bound(amount, 1, held), 0);
        fromMarkets += int256(marketSide) - int256(_marketSide());
    }

    function claim(uint256 marketSeed) external {
        uint256 m = marketSeed % markets.length;
        Market market = markets[m];
        if (!_settled(market)) return;
        uint256 marketSide = _marketSide();
        vm.prank(manager);
        vault.claim(ids[m]);
        fromMarkets += int256(marketSide) - int256(_marketSide());
    }

    function setActive(bool active) external {
        vm.prank(manager);
        registry.setActive(manager, active);
    }

    // ------------------------------------------------------------ the rest of the world

    /// @dev Moves prices, so that the vault's positions gain and lose.
    function outsiderTrade(uint256 marketSeed, uint256 outcome, uint256 amount, bool isBuy) external {
        Market market = markets[marketSeed % markets.length];
        if (!market.isTrading()) return;
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        vm.startPrank(outsider);
        if (isBuy) {
            try market.buy(outcome, bound(amount, 1e6, 5 * uint256(market.b())), 0) {}
            catch (bytes memory reason) {
                _allowQuoteFailed(reason);
            }
        } else {
            uint256 held = market.balanceOf(outsider, outcome);
            if (held != 0) market.sell(outcome, bound(amount, 1, held), 0);
        }
        vm.stopPrank();
    }

    /// @dev One call in four acts, so that markets trade for a while before they settle.
    function settle(uint256 marketSeed, uint256 action, uint256 outcome) external {
        if (action % 4 != 0) return;
        Market market = markets[marketSeed % markets.length];
        if (_settled(market)) return;
        Market.Status status = market.status();
        vm.startPrank(resolver);
        action = (action / 4) % 3;
        if (action == 0 && status == Market.Status.Active) market.close();
        if (action == 1 && (status == Market.Status.Closed || !market.isTrading())) {
            market.resolve(bound(outcome, 0, market.outcomeCount() - 1));
        }
        if (action == 2) market.void();
        vm.stopPrank();
    }

    // ------------------------------------------------------------ views for the invariants

    function bondCount() external view returns (uint256) {
        return bondIds.length;
    }

    function actorCount() external view returns (uint256) {
        return actors.length;
    }

    function marketCount() external view returns (uint256) {
        return markets.length;
    }

    // ------------------------------------------------------------ internals

    function _pickBond(uint256 seed) private view returns (uint256 bondId, address staker, uint256 held) {
        uint256 n = bondIds.length;
        for (uint256 i; i < n; ++i) {
            bondId = bondIds[(seed % n + i) % n];
            (staker,, held,,) = vault.bonds(bondId);
            if (held != 0) return (bondId, staker, held);
        }
    }

    /// @dev USDC the vault's claims of its settled open positions will bring in: each winning
    /// token, or after a void every token at 1/n.
    function _claimable() private view returns (uint256 total) {
        for (uint256 m; m < markets.length; ++m) {
            Market market = markets[m];
            if (!vault.isOpen(address(market)) || !_settled(market)) continue;
            if (market.status() == Market.Status.Resolved) {
                total += market.balanceOf(address(vault), market.resolvedOutcome());
                continue;
            }
            uint256 tokens;
            for (uint256 i; i < market.outcomeCount(); ++i) tokens += market.balanceOf(address(vault), i);
            total += tokens / market.outcomeCount();
        }
    }

    function _beforeBond(address actor) private view returns (BondBefore memory before) {
        before.supply = vault.totalShares();
        before.claims = _claimable();
        before.cash = usdc.balanceOf(address(vault)) + before.claims;
        before.marketSide = _marketSide();
        before.staker = usdc.balanceOf(actor);
        before.tokens = new uint256[][](markets.length);
        before.trading = new bool[](markets.length);
        before.marks = before.cash;
        for (uint256 m; m < markets.length; ++m) {
            Market market = markets[m];
            uint256 n = market.outcomeCount();
            before.tokens[m] = new uint256[](n);
            for (uint256 i; i < n; ++i) before.tokens[m][i] = market.balanceOf(address(vault), i);
            if (!vault.isOpen(address(market)) || _settled(market)) continue;
            uint256 value = vault.positionValue(address(market));
            before.marks += value;
            before.trading[m] = market.isTrading();
            if (!before.trading[m]) before.closedValue += vault.settlementCeiling(address(market));
        }
    }

    function _checkBond(BondBefore memory before, uint256 amount, uint256 bondId, uint256 shares, uint256 paid)
        private
    {
        (,,, uint256 principal,) = vault.bonds(bondId);
        if (paid > amount || principal != paid || vault.totalShares() != before.supply + shares) bondMismatches++;
        if (before.supply == 0) {
            if (shares != amount || paid != amount) bondMismatches++;
            return;
        }
        uint256 supply = before.supply;
        uint256 total = supply + shares;
        uint256 cash = usdc.balanceOf(address(vault));
        // Its fraction of the cash and of the closed markets' marks, rounded up, stays in the vault;
        // the rest of what it paid bought tokens from the markets.
        uint256 fixedValue = before.cash + before.closedValue;
        if (cash != before.cash + _mulDivUp(fixedValue, shares, supply)) bondMismatches++;
        if (paid != cash - before.cash + _marketSide() + before.claims - before.marketSide) bondMismatches++;
        if (cash * supply < before.cash * total) dilutions++;
        if ((cash + before.closedValue) * supply < fixedValue * total) dilutions++;
        for (uint256 m; m < markets.length; ++m) {
            if (!before.trading[m]) continue;
            for (uint256 i; i < before.tokens[m].length; ++i) {
                uint256 held = before.tokens[m][i];
                uint256 tokens = markets[m].balanceOf(address(vault), i);
                if (tokens != held + _mulDivUp(held, shares, supply)) bondMismatches++;
                if (tokens * supply < held * total) dilutions++;
            }
        }
    }

    /// @dev A bond may be refused only when the vault holds nothing of value, when the amount is
    /// too small to buy a single share, or when the purchase the amount is sized for at the marks is
    /// more than a market sells in one trade (40 b).
    function _checkBondRefusal(bytes memory reason, BondBefore memory before, uint256 amount) private {
        bytes4 selector = bytes4(reason);
        if (selector == AgentVault.NoAssetValue.selector && before.marks == 0) return;
        uint256 atMarks = before.marks == 0 ? 0 : amount * before.supply / before.marks;
        if (selector == AgentVault.BondTooSmall.selector && atMarks <= 10) return;
        if (selector == Market.TradeTooLarge.selector && _markSizedPartTooLarge(before, atMarks)) {
            tooLargeRefusals++;
            return;
        }
        assembly ("memory-safe") {
            revert(add(reason, 32), mload(reason))
        }
    }

    function _markSizedPartTooLarge(BondBefore memory before, uint256 atMarks) private view returns (bool) {
        for (uint256 m; m < markets.length; ++m) {
            if (!before.trading[m]) continue;
            for (uint256 i; i < before.tokens[m].length; ++i) {
                uint256 part = _mulDivUp(before.tokens[m][i], atMarks, before.supply);
                if (part == 0) continue;
                try markets[m].quoteBuyTokens(i, part) {}
                catch {
                    return true;
                }
            }
        }
        return false;
    }

    function _mulDivUp(uint256 x, uint256 y, uint256 d) private pure returns (uint256) {
        return (x * y + d - 1) / d;
    }

    function _inKindParts(uint256 shares, uint256 supply, address staker)
        private
        view
        returns (uint256[][] memory parts)
    {
        parts = new uint256[][](markets.length);
        for (uint256 m; m < markets.length; ++m) {
            Market market = markets[m];
            uint256 n = market.outcomeCount();
            parts[m] = new uint256[](2 * n);
            bool paidInKind = vault.isOpen(address(market)) && !_settled(market) && !market.isTrading();
            for (uint256 i; i < n; ++i) {
                // [expected part, staker's balance before] per outcome
                if (paidInKind) parts[m][i] = market.balanceOf(address(vault), i) * shares / supply;
                parts[m][n + i] = market.balanceOf(staker, i);
            }
        }
    }

    function _checkInKind(uint256[][] memory parts, address staker) private view returns (uint256 wrong) {
        for (uint256 m; m < markets.length; ++m) {
            uint256 n = markets[m].outcomeCount();
            for (uint256 i; i < n; ++i) {
                if (markets[m].balanceOf(staker, i) != parts[m][n + i] + parts[m][i]) wrong++;
            }
        }
    }

    function _quote(uint256 bondId, uint256 shares) private returns (uint256 paid, uint256 fee) {
        try vault.quoteUnbond(bondId, shares) {}
        catch (bytes memory reason) {
            if (reason.length == 68 && bytes4(reason) == AgentVault.UnbondQuote.selector) {
                assembly ("memory-safe") {
                    paid := mload(add(reason, 36))
                    fee := mload(add(reason, 68))
                }
                return (paid, fee);
            }
        }
        return (type(uint256).max, type(uint256).max); // counted as a mismatch
    }

    /// @dev USDC held by the markets and the treasury their fees go to.
    function _marketSide() private view returns (uint256 total) {
        total = usdc.balanceOf(treasury);
        for (uint256 m; m < markets.length; ++m) total += usdc.balanceOf(address(markets[m]));
    }

    function _settled(Market market) private view returns (bool) {
        Market.Status status = market.status();
        return status == Market.Status.Resolved || status == Market.Status.Voided;
    }

    /// @dev An outcome priced below about 1e-8 may be refused (QuoteFailed); any other revert fails.
    function _allowQuoteFailed(bytes memory reason) private pure {
        if (reason.length >= 4 && bytes4(reason) == Market.QuoteFailed.selector) return;
        assembly ("memory-safe") {
            revert(add(reason, 32), mload(reason))
        }
    }
}
