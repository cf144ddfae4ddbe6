// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Fixture} from "./utils/Fixture.sol";
import {Test} from "./utils/Test.sol";
import {Market} from "../src/Market.sol";
import {TestUSDC} from "../src/TestUSDC.sol";

/// @dev The invariant runner calls these actions in random order with random arguments; each
/// keeps the ghost records the invariants compare against.
contract MarketHandler is Test {
    Market public immutable market;
    TestUSDC public immutable usdc;
    address public immutable house;
    address[] public actors;
    mapping(address actor => bool) public claimed;
    mapping(address actor => uint256) public claimExpected;
    uint256 public claimMismatches;
    uint256 public doubleClaimsPaid;
    uint256 public refusedQuotes;
    uint256 public buyTokensMismatches;

    constructor(Market market_, TestUSDC usdc_, address house_, address[] memory actors_) {
        market = market_;
        usdc = usdc_;
        house = house_;
        actors = actors_;
    }

    function buy(uint256 actorSeed, uint256 outcome, uint256 amount) external {
        if (!market.isTrading()) return;
        address actor = actors[actorSeed % actors.length];
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        amount = bound(amount, 10, 10 * uint256(market.b()));
        vm.prank(actor);
        try market.buy(outcome, amount, 0) {}
        catch (bytes memory reason) {
            // An outcome priced below about 1e-8 may be refused (QuoteFailed) rather than sold at a
            // price the exact cost check cannot vouch for; any other revert is a failure.
            bytes4 selector;
            assembly {
                selector := mload(add(reason, 32))
            }
            if (reason.length < 4 || selector != Market.QuoteFailed.selector) {
                assembly {
                    revert(add(reason, 32), mload(reason))
                }
            }
            refusedQuotes++;
        }
    }

    /// @dev Buys an exact token amount; the quote it is checked against is read just before.
    function buyTokens(uint256 actorSeed, uint256 outcome, uint256 amount) external {
        if (!market.isTrading()) return;
        address actor = actors[actorSeed % actors.length];
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        amount = bound(amount, 1, 10 * uint256(market.b()));
        (uint256 quoted,,) = market.quoteBuyTokens(outcome, amount);
        uint256 held = market.balanceOf(actor, outcome);
        vm.prank(actor);
        uint256 paid = market.buyTokens(outcome, amount, quoted);
        if (paid != quoted || market.balanceOf(actor, outcome) != held + amount) buyTokensMismatches++;
    }

    function sell(uint256 actorSeed, uint256 outcome, uint256 fraction) external {
        if (!market.isTrading()) return;
        address actor = actors[actorSeed % actors.length];
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        uint256 held = market.balanceOf(actor, outcome);
        if (held == 0) return;
        uint256 amount = bound(fraction, 1, held);
        vm.prank(actor);
        market.sell(outcome, amount, 0);
    }

    function close() external {
        if (market.status() != Market.Status.Active) return;
        vm.prank(house);
        market.close();
    }

    function resolve(uint256 outcome) external {
        if (market.status() != Market.Status.Closed) return;
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        vm.prank(house);
        market.resolve(outcome);
    }

    function voidMarket() external {
        if (market.status() != Market.Status.Closed) return;
        vm.prank(house);
        market.void();
    }

    function claim(uint256 actorSeed) external {
        Market.Status status = market.status();
        if (status != Market.Status.Resolved && status != Market.Status.Voided) return;
        address actor = actors[actorSeed % actors.length];
        uint256 expected = _expectedClaim(actor, status);
        uint256 before = usdc.balanceOf(actor);
        vm.prank(actor);
        try market.claim() returns (uint256 paid) {
            if (claimed[actor]) doubleClaimsPaid += paid;
            if (paid != expected || usdc.balanceOf(actor) != before + paid) claimMismatches++;
            claimed[actor] = true;
        } catch {
            if (expected != 0 && !claimed[actor]) claimMismatches++;
        }
    }

    function actorCount() external view returns (uint256) {
        return actors.length;
    }

    function _expectedClaim(address actor, Market.Status status) private view returns (uint256) {
        if (status == Market.Status.Resolved) return market.balanceOf(actor, market.resolvedOutcome());
        uint256 tokens;
        for (uint256 i; i < market.outcomeCount(); ++i) tokens += market.balanceOf(actor, i);
        return tokens / market.outcomeCount();
    }
}

/// @dev Solvency and price sanity across buys, sells, closing, resolving, voiding and claims by
/// several actors (runs and depth: foundry.toml [invariant]).
contract MarketInvariantTest is Fixture {
    Market internal market;
    MarketHandler internal handler;

    function setUp() public override {
        super.setUp();
        market = _market("invariant", 3, 500 * USDC, 150);
        address[] memory actors = new address[](4);
        for (uint256 i; i < actors.length; ++i) {
            actors[i] = address(uint160(0x1000 + i));
            _fund(actors[i], 1e9 * USDC, address(market));
        }
        handler = new MarketHandler(market, usdc, HOUSE, actors);
        targetContract(address(handler));
    }

    /// The market's USDC covers the largest payout it could owe.
    function invariant_solvent() public view {
        uint256 balance = usdc.balanceOf(address(market));
        uint256 n = market.outcomeCount();
        Market.Status status = market.status();
        uint256 owed;
        if (status == Market.Status.Resolved) {
            uint256 winner = market.resolvedOutcome();
            for (uint256 a; a < handler.actorCount(); ++a) owed += market.balanceOf(handler.actors(a), winner);
        } else if (status == Market.Status.Voided) {
            for (uint256 a; a < handler.actorCount(); ++a) {
                uint256 tokens;
                for (uint256 i; i < n; ++i) tokens += market.balanceOf(handler.actors(a), i);
                owed += tokens / n;
            }
        } else {
            uint256[] memory q = market.quantities();
            for (uint256 i; i < n; ++i) if (q[i] > owed) owed = q[i];
        }
        assertGe(balance, owed, "insolvent");
    }

    function invariant_pricesInUnitIntervalSummingToOne() public view {
        uint256[] memory p = market.prices();
        for (uint256 i; i < p.length; ++i) assertTrue(p[i] > 0 && p[i] < 1e18, "price outside (0,1)");
        assertApproxEqAbs(_sum(p), 1e18, p.length, "prices do not sum to one");
    }

    function invariant_quantitiesMatchTokenSupplyBeforeSettlement() public view {
        Market.Status status = market.status();
        if (status == Market.Status.Resolved || status == Market.Status.Voided) return;
        uint256[] memory q = market.quantities();
        for (uint256 i; i < q.length; ++i) {
            uint256 supply;
            for (uint256 a; a < handler.actorCount(); ++a) supply += market.balanceOf(handler.actors(a), i);
            assertEq(q[i], supply, "q differs from supply");
        }
    }

    function invariant_buyTokensMintsTheAmountForTheQuote() public view {
        assertEq(handler.buyTokensMismatches(), 0, "buyTokens paid or minted other than quoted");
    }

    function invariant_claimsPayExactlyOnce() public view {
        assertEq(handler.claimMismatches(), 0, "a claim paid the wrong amount");
        assertEq(handler.doubleClaimsPaid(), 0, "a second claim paid");
    }
}
