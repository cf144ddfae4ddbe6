// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Fixture} from "./utils/Fixture.sol";
import {Market} from "../src/Market.sol";
import {MarketFactory} from "../src/MarketFactory.sol";
import {LMSR} from "../src/LMSR.sol";
import {Ownable} from "solady/auth/Ownable.sol";

contract MarketTest is Fixture {
    address internal constant ALICE = address(0xA1);
    address internal constant BOB = address(0xB0B);
    Market internal market;

    function setUp() public override {
        super.setUp();
        market = _market("will-it-rain", 2, 1_000 * USDC, 100);
        _fund(ALICE, 10_000 * USDC, address(market));
        _fund(BOB, 10_000 * USDC, address(market));
    }

    // ------------------------------------------------------------ factory

    function test_createMarket_deploysAtSlugAddressAndTakesSubsidy() public view {
        assertEq(address(market), factory.marketAddress("will-it-rain"), "address follows from slug");
        assertEq(factory.markets(keccak256("will-it-rain")), address(market), "registered by id");
        uint256 subsidy = factory.subsidyFor(1_000 * USDC, 2);
        // b·ln 2 = 693.147180... USDC, rounded up.
        assertApproxEqAbs(subsidy, 693_147_181, 2, "subsidy is b ln n");
        assertEq(usdc.balanceOf(address(market)), subsidy, "market holds the subsidy");
        assertEq(market.outcomeCount(), 2, "outcomes");
        assertEq(market.feeBps(), 100, "fee");
        assertEq(market.b(), 1_000 * USDC, "b");
    }

    function test_createMarket_pricesStartUniform() public {
        Market four = _market("four-way", 4, 500 * USDC, 0);
        uint256[] memory p = four.prices();
        for (uint256 i; i < 4; ++i) assertApproxEqAbs(p[i], 0.25e18, 1, "uniform");
    }

    function test_createMarket_revertsForNonOperator() public {
        vm.expectRevert(Ownable.Unauthorized.selector);
        factory.createMarket("x", "x", "x", _outcomes(2), block.timestamp + 1, 1_000 * USDC, 0);
    }

    function test_createMarket_validatesParameters() public {
        vm.startPrank(HOUSE);
        vm.expectRevert(MarketFactory.InvalidSlug.selector);
        factory.createMarket("", "t", "d", _outcomes(2), block.timestamp + 1, 1_000 * USDC, 0);
        vm.expectRevert(MarketFactory.InvalidOutcomes.selector);
        factory.createMarket("a", "t", "d", _outcomes(1), block.timestamp + 1, 1_000 * USDC, 0);
        vm.expectRevert(MarketFactory.InvalidOutcomes.selector);
        factory.createMarket("a", "t", "d", _outcomes(9), block.timestamp + 1, 1_000 * USDC, 0);
        vm.expectRevert(MarketFactory.InvalidLiquidity.selector);
        factory.createMarket("a", "t", "d", _outcomes(2), block.timestamp + 1, 1, 0);
        vm.expectRevert(MarketFactory.InvalidLiquidity.selector);
        factory.createMarket("a", "t", "d", _outcomes(2), block.timestamp + 1, LMSR.MAX_B + 1, 0);
        vm.expectRevert(MarketFactory.InvalidFee.selector);
        factory.createMarket("a", "t", "d", _outcomes(2), block.timestamp + 1, 1_000 * USDC, 1001);
        vm.expectRevert(MarketFactory.InvalidClosesAt.selector);
        factory.createMarket("a", "t", "d", _outcomes(2), block.timestamp, 1_000 * USDC, 0);
        vm.expectRevert(MarketFactory.MarketExists.selector);
        factory.createMarket("will-it-rain", "t", "d", _outcomes(2), block.timestamp + 1, 1_000 * USDC, 0);
        vm.stopPrank();
    }

    function test_initialize_cannotRunTwice() public {
        vm.expectRevert(Market.AlreadyInitialized.selector);
        market.initialize(address(usdc), 2, 1, 0, block.timestamp + 1);
        Market implementation = Market(factory.implementation());
        vm.expectRevert(Market.AlreadyInitialized.selector);
        implementation.initialize(address(usdc), 2, 1, 0, block.timestamp + 1);
    }

    function test_setTreasury_onlyOwner() public {
        factory.setTreasury(address(0xBEEF));
        assertEq(factory.treasury(), address(0xBEEF), "treasury set");
        vm.prank(ALICE);
        vm.expectRevert(Ownable.Unauthorized.selector);
        factory.setTreasury(ALICE);
    }

    // ------------------------------------------------------------ buy

    function test_buy_mintsQuotedTokensMovesPriceAndPaysFee() public {
        (uint256 quoted, uint256 quotedFee,) = market.quoteBuy(0, 100 * USDC);
        uint256 before = usdc.balanceOf(address(market));
        vm.prank(ALICE);
        uint256 tokens = market.buy(0, 100 * USDC, quoted);
        assertEq(tokens, quoted, "tokens as quoted");
        assertEq(quotedFee, 1 * USDC, "1% fee");
        assertEq(market.balanceOf(ALICE, 0), tokens, "position");
        assertEq(usdc.balanceOf(TREASURY), 1 * USDC, "fee to treasury");
        assertEq(usdc.balanceOf(address(market)), before + 99 * USDC, "net spend to market");
        uint256[] memory p = market.prices();
        assertTrue(p[0] > 0.5e18 && p[1] < 0.5e18, "bought outcome got dearer");
        // 99 USDC at prices starting from 0.5 buys between 99 / 0.55 and 99 / 0.5 tokens.
        assertTrue(tokens > 180 * USDC && tokens < 198 * USDC, "tokens in range");
    }

    function test_buy_revertsOnSlippage() public {
        (uint256 quoted,,) = market.quoteBuy(1, 50 * USDC);
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(Market.Slippage.selector, quoted, quoted + 1));
        market.buy(1, 50 * USDC, quoted + 1);
    }

    function test_buy_revertsOnBadInput() public {
        vm.startPrank(ALICE);
        vm.expectRevert(Market.InvalidOutcome.selector);
        market.buy(2, 1 * USDC, 0);
        vm.expectRevert(Market.ZeroAmount.selector);
        market.buy(0, 0, 0);
        vm.expectRevert(Market.TradeTooLarge.selector);
        market.buy(0, 50_000 * USDC, 0);
        vm.stopPrank();
    }

    function test_buy_revertsWithoutFundsOrAllowance() public {
        address poor = address(0xD00D);
        vm.prank(poor);
        vm.expectRevert();
        market.buy(0, 1 * USDC, 0);
    }

    function test_buy_revertsAfterClosesAt() public {
        vm.warp(block.timestamp + 7 days);
        vm.prank(ALICE);
        vm.expectRevert(Market.TradingClosed.selector);
        market.buy(0, 1 * USDC, 0);
    }

    function test_buy_revertsOnceClosed() public {
        vm.prank(HOUSE);
        market.close();
        vm.prank(ALICE);
        vm.expectRevert(Market.TradingClosed.selector);
        market.buy(0, 1 * USDC, 0);
    }

    // ------------------------------------------------------------ buyTokens

    function test_buyTokens_mintsExactAmountForTheQuote() public {
        uint256 amount = 150 * USDC;
        (uint256 quoted, uint256 quotedFee, uint256[] memory pricesAfter) = market.quoteBuyTokens(0, amount);
        uint256 marketBefore = usdc.balanceOf(address(market));
        vm.prank(ALICE);
        uint256 paid = market.buyTokens(0, amount, quoted);
        assertEq(paid, quoted, "paid as quoted");
        assertEq(market.balanceOf(ALICE, 0), amount, "exactly the tokens asked for");
        assertEq(market.quantities()[0], amount, "q grows by the amount");
        assertEq(usdc.balanceOf(ALICE), 10_000 * USDC - paid, "taken from the buyer");
        assertEq(usdc.balanceOf(TREASURY), quotedFee, "fee to treasury");
        assertEq(usdc.balanceOf(address(market)), marketBefore + paid - quotedFee, "net spend to market");
        // The fee is the same share of what is paid as a buy's fee (1%), rounded up.
        assertApproxEqAbs(quotedFee, paid / 100, 1, "1% of the payment");
        uint256[] memory p = market.prices();
        assertEq(p[0], pricesAfter[0], "prices as quoted");
        // 150 tokens at prices rising from 0.5: between 0.5 and 0.54 USDC each, plus the fee.
        assertTrue(paid > 75 * USDC && paid < 82 * USDC, "cost in range");
    }

    function test_buyTokens_costsWhatABuyOfTheSameTokensCosts() public {
        vm.prank(BOB);
        uint256 tokens = market.buy(1, 100 * USDC, 0);
        vm.prank(BOB);
        market.sell(1, tokens, 0);
        (uint256 quoted,,) = market.quoteBuyTokens(1, tokens);
        // A buy shades its tokens down by one part in 1e8 and holds back a few units; buyTokens
        // charges the exact cost: never more than the buy, and within that shading of it.
        assertLe(quoted, 100 * USDC, "no dearer than buy");
        assertApproxEqAbs(quoted, 100 * USDC, 10, "as dear as buy but for rounding");
    }

    function test_buyTokens_revertsWithSlippageOverMax() public {
        (uint256 quoted,,) = market.quoteBuyTokens(1, 40 * USDC);
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(Market.Slippage.selector, quoted, quoted - 1));
        market.buyTokens(1, 40 * USDC, quoted - 1);
        vm.prank(ALICE);
        assertEq(market.buyTokens(1, 40 * USDC, quoted), quoted, "at the limit");
    }

    function test_buyTokens_revertsOnBadInput() public {
        vm.startPrank(ALICE);
        vm.expectRevert(Market.InvalidOutcome.selector);
        market.buyTokens(2, 1 * USDC, type(uint256).max);
        vm.expectRevert(Market.ZeroAmount.selector);
        market.buyTokens(0, 0, type(uint256).max);
        vm.expectRevert(Market.TradeTooLarge.selector);
        market.buyTokens(0, 50_000 * USDC, type(uint256).max);
        vm.stopPrank();
        vm.expectRevert(Market.InvalidOutcome.selector);
        market.quoteBuyTokens(2, 1);
        address poor = address(0xD00D);
        vm.prank(poor);
        vm.expectRevert();
        market.buyTokens(0, 1 * USDC, type(uint256).max);
    }

    function test_buyTokens_revertsOnceTradingStops() public {
        vm.warp(block.timestamp + 7 days);
        vm.prank(ALICE);
        vm.expectRevert(Market.TradingClosed.selector);
        market.buyTokens(0, 1 * USDC, type(uint256).max);
    }

    // ------------------------------------------------------------ sell

    function test_sell_paysQuoteAndBurns() public {
        vm.startPrank(ALICE);
        uint256 tokens = market.buy(0, 100 * USDC, 0);
        (uint256 quoted, uint256 fee,) = market.quoteSell(0, tokens / 2);
        uint256 before = usdc.balanceOf(ALICE);
        uint256 paid = market.sell(0, tokens / 2, quoted);
        vm.stopPrank();
        assertEq(paid, quoted, "paid as quoted");
        assertTrue(fee > 0, "fee charged");
        assertEq(usdc.balanceOf(ALICE), before + paid, "seller paid");
        assertEq(market.balanceOf(ALICE, 0), tokens - tokens / 2, "tokens burned");
    }

    function test_sell_revertsOnBadInput() public {
        vm.prank(ALICE);
        uint256 tokens = market.buy(0, 10 * USDC, 0);
        vm.startPrank(BOB);
        vm.expectRevert(Market.InsufficientTokens.selector);
        market.sell(0, 1, 0);
        vm.stopPrank();
        vm.startPrank(ALICE);
        vm.expectRevert(Market.InsufficientTokens.selector);
        market.sell(0, tokens + 1, 0);
        vm.expectRevert(Market.ZeroAmount.selector);
        market.sell(0, 0, 0);
        vm.expectRevert(Market.InvalidOutcome.selector);
        market.sell(5, 1, 0);
        (uint256 quoted,,) = market.quoteSell(0, tokens);
        vm.expectRevert(abi.encodeWithSelector(Market.Slippage.selector, quoted, quoted + 1));
        market.sell(0, tokens, quoted + 1);
        vm.stopPrank();
    }

    function test_sell_revertsOnceClosed() public {
        vm.prank(ALICE);
        uint256 tokens = market.buy(0, 10 * USDC, 0);
        vm.prank(HOUSE);
        market.close();
        vm.prank(ALICE);
        vm.expectRevert(Market.TradingClosed.selector);
        market.sell(0, tokens, 0);
    }

    function test_quotes_revertOnInvalidOutcome() public {
        vm.expectRevert(Market.InvalidOutcome.selector);
        market.quoteBuy(2, 1);
        vm.expectRevert(Market.InvalidOutcome.selector);
        market.quoteSell(2, 1);
    }

    // ------------------------------------------------------------ lifecycle

    function test_lifecycle_onlyResolver() public {
        vm.startPrank(ALICE);
        vm.expectRevert(Market.NotResolver.selector);
        market.close();
        vm.expectRevert(Market.NotResolver.selector);
        market.resolve(0);
        vm.expectRevert(Market.NotResolver.selector);
        market.void();
        vm.stopPrank();
    }

    function test_resolve_requiresTradingToHaveStopped() public {
        vm.startPrank(HOUSE);
        vm.expectRevert(Market.NotSettled.selector);
        market.resolve(0);
        vm.warp(block.timestamp + 7 days);
        vm.expectRevert(Market.InvalidOutcome.selector);
        market.resolve(2);
        market.resolve(1);
        assertEq(uint256(market.status()), uint256(Market.Status.Resolved), "resolved");
        assertEq(market.resolvedOutcome(), 1, "winner");
        vm.expectRevert(Market.AlreadySettled.selector);
        market.resolve(0);
        vm.expectRevert(Market.AlreadySettled.selector);
        market.void();
        vm.stopPrank();
    }

    function test_close_onlyOnce() public {
        vm.startPrank(HOUSE);
        market.close();
        vm.expectRevert(Market.TradingClosed.selector);
        market.close();
        vm.stopPrank();
    }

    // ------------------------------------------------------------ claim

    function test_claim_paysOnePerWinningTokenOnce() public {
        vm.prank(ALICE);
        uint256 aliceTokens = market.buy(0, 100 * USDC, 0);
        vm.prank(BOB);
        market.buy(1, 100 * USDC, 0);
        vm.startPrank(HOUSE);
        market.close();
        market.resolve(0);
        vm.stopPrank();

        uint256 before = usdc.balanceOf(ALICE);
        vm.prank(ALICE);
        uint256 paid = market.claim();
        assertEq(paid, aliceTokens, "one USDC per token");
        assertEq(usdc.balanceOf(ALICE), before + aliceTokens, "paid out");
        assertEq(market.balanceOf(ALICE, 0), 0, "burned");
        vm.prank(ALICE);
        vm.expectRevert(Market.NothingToClaim.selector);
        market.claim();
        vm.prank(BOB);
        vm.expectRevert(Market.NothingToClaim.selector);
        market.claim();
    }

    function test_claim_afterVoidPaysOneNth() public {
        vm.startPrank(ALICE);
        uint256 a = market.buy(0, 100 * USDC, 0);
        uint256 b = market.buy(1, 30 * USDC, 0);
        vm.stopPrank();
        vm.prank(HOUSE);
        market.void();
        vm.prank(ALICE);
        uint256 paid = market.claim();
        assertEq(paid, (a + b) / 2, "every token at 1/n");
        assertEq(market.balanceOf(ALICE, 0) + market.balanceOf(ALICE, 1), 0, "all burned");
    }

    function test_claim_revertsBeforeSettlement() public {
        vm.prank(ALICE);
        market.buy(0, 10 * USDC, 0);
        vm.prank(ALICE);
        vm.expectRevert(Market.NotSettled.selector);
        market.claim();
    }
}
