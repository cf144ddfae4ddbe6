// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Fixture} from "./utils/Fixture.sol";
import {Market} from "../src/Market.sol";

/// @dev Round trips and quotes over random markets and trade sizes (runs: foundry.toml [fuzz]).
contract MarketFuzzTest is Fixture {
    address internal constant TRADER = address(0xF00);

    function _randomMarket(uint256 n, uint256 b, uint256 feeBps) internal returns (Market market) {
        n = bound(n, 2, 8);
        b = bound(b, 10 * USDC, 100_000 * USDC);
        feeBps = bound(feeBps, 0, 1000);
        market = _market("fuzz", n, b, feeBps);
        _fund(TRADER, 1e9 * USDC, address(market));
    }

    /// A buy followed by selling every token received never returns more than was paid.
    function testFuzz_buyThenSellNeverProfits(uint256 n, uint256 b, uint256 feeBps, uint256 outcome, uint256 spend)
        public
    {
        Market market = _randomMarket(n, b, feeBps);
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        spend = bound(spend, 10, 20 * uint256(market.b()));
        vm.startPrank(TRADER);
        uint256 tokens = market.buy(outcome, spend, 0);
        uint256 back = market.sell(outcome, tokens, 0);
        vm.stopPrank();
        assertLe(back, spend, "round trip profit");
    }

    /// Prices stay inside (0, 1) and sum to 1e18 within n wei after any buy.
    function testFuzz_pricesStayNormalized(uint256 n, uint256 b, uint256 outcome, uint256 spend) public {
        Market market = _randomMarket(n, b, 0);
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        spend = bound(spend, 10, 40 * uint256(market.b()));
        vm.prank(TRADER);
        market.buy(outcome, spend, 0);
        uint256[] memory p = market.prices();
        for (uint256 i; i < p.length; ++i) assertTrue(p[i] > 0 && p[i] < 1e18, "price in (0,1)");
        assertApproxEqAbs(_sum(p), 1e18, p.length, "prices sum to one");
    }

    /// Quotes are what the trade then does, and the market stays solvent after a buy and a sell.
    function testFuzz_quoteMatchesTradeAndStaysSolvent(uint256 n, uint256 b, uint256 feeBps, uint256 spend, uint256 sellPart)
        public
    {
        Market market = _randomMarket(n, b, feeBps);
        spend = bound(spend, 10, 20 * uint256(market.b()));
        (uint256 quotedTokens,,) = market.quoteBuy(0, spend);
        vm.startPrank(TRADER);
        uint256 tokens = market.buy(0, spend, 0);
        assertEq(tokens, quotedTokens, "buy as quoted");
        uint256 toSell = bound(sellPart, 1, tokens);
        (uint256 quotedUsdc,,) = market.quoteSell(0, toSell);
        assertEq(market.sell(0, toSell, 0), quotedUsdc, "sell as quoted");
        vm.stopPrank();
        uint256[] memory q = market.quantities();
        uint256 top;
        for (uint256 i; i < q.length; ++i) if (q[i] > top) top = q[i];
        assertGe(usdc.balanceOf(address(market)), top, "covers the largest payout");
    }
    /// buyTokens mints exactly the tokens asked for at the quoted cost, the fee goes to the
    /// treasury, the market stays solvent, and selling them back never returns more than was paid.
    function testFuzz_buyTokensAsQuotedSolventAndNoRoundTripProfit(
        uint256 n,
        uint256 b,
        uint256 feeBps,
        uint256 outcome,
        uint256 spend,
        uint256 amount
    ) public {
        Market market = _randomMarket(n, b, feeBps);
        outcome = bound(outcome, 0, market.outcomeCount() - 1);
        // Move the price first, so that the purchase does not always start from uniform prices.
        spend = bound(spend, 0, 10 * uint256(market.b()));
        vm.startPrank(TRADER);
        if (spend >= 10) market.buy((outcome + 1) % market.outcomeCount(), spend, 0);
        amount = bound(amount, 1, 5 * uint256(market.b()));
        (uint256 quoted, uint256 fee,) = market.quoteBuyTokens(outcome, amount);
        uint256 treasuryBefore = usdc.balanceOf(TREASURY);
        uint256 traderBefore = usdc.balanceOf(TRADER);
        uint256 held = market.balanceOf(TRADER, outcome);
        uint256 paid = market.buyTokens(outcome, amount, quoted);
        assertEq(paid, quoted, "paid as quoted");
        assertEq(market.balanceOf(TRADER, outcome), held + amount, "exactly the tokens asked for");
        assertEq(usdc.balanceOf(TRADER), traderBefore - paid, "taken from the buyer");
        assertEq(usdc.balanceOf(TREASURY), treasuryBefore + fee, "fee to treasury");
        uint256[] memory q = market.quantities();
        uint256 top;
        for (uint256 i; i < q.length; ++i) if (q[i] > top) top = q[i];
        assertGe(usdc.balanceOf(address(market)), top, "covers the largest payout");
        uint256 back = market.sell(outcome, amount, 0);
        vm.stopPrank();
        assertLe(back, paid, "round trip profit");
    }
}
