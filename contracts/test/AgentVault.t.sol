// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AgentFixture} from "./utils/AgentFixture.sol";
import {AgentVault} from "../src/AgentVault.sol";
import {Market} from "../src/Market.sol";

/// @dev Bonding, the manager's trading and the vault's valuation (unbonding: AgentVaultUnbond.t.sol).
contract AgentVaultTest is AgentFixture {
    address internal constant AGENT = address(0xA6E7);
    address internal constant ALICE = address(0xA1);
    address internal constant BOB = address(0xB0B);
    AgentVault internal vault;
    Market internal rain;
    Market internal snow;

    function setUp() public override {
        super.setUp();
        rain = _market("rain", 2, 1_000 * USDC, 100);
        snow = _market("snow", 3, 500 * USDC, 0);
        vault = _register(AGENT, 1000, 1 days);
    }

    // ------------------------------------------------------------ bond

    function test_bond_firstAtOneSharePerUnit() public {
        _fund(ALICE, 100 * USDC, address(vault));
        vm.expectEmit(true, true, false, true);
        emit AgentVault.Bonded(1, ALICE, 100 * USDC, 100 * USDC, 100 * USDC);
        vm.prank(ALICE);
        (uint256 bondId, uint256 shares) = vault.bond(100 * USDC);
        assertEq(bondId, 1, "bond id");
        assertEq(shares, 100 * USDC, "1 share per USDC unit");
        assertEq(vault.totalShares(), 100 * USDC, "totalShares");
        assertEq(usdc.balanceOf(address(vault)), 100 * USDC, "USDC in the vault");
        assertEq(usdc.balanceOf(ALICE), 0, "taken from the staker");
        (address staker, uint64 bondedAt, uint256 held, uint256 principal, uint256 highWater) = vault.bonds(1);
        assertEq(staker, ALICE, "staker");
        assertEq(bondedAt, block.timestamp, "bondedAt");
        assertEq(held, shares, "shares");
        assertEq(principal, 100 * USDC, "principal");
        assertEq(highWater, 100 * USDC, "high-water starts at the principal");
    }

    /// A later bond pays its fraction of the cash and buys the same fraction of the position from
    /// the market, for what the market quoted beforehand; the rest of the amount is refunded.
    function test_bond_laterBuysIntoTheVault() public {
        _bond(vault, ALICE, 100 * USDC);
        uint256 tokens = _vaultBuy(vault, "rain", 0, 40 * USDC);
        uint256 cash = usdc.balanceOf(address(vault));
        uint256 supply = vault.totalShares();
        uint256 atMarks = 300 * USDC * supply / vault.netAssetValue();
        uint256 marketSide = _marketSide(_markets());
        uint256 snapshot = vm.snapshotState();

        (uint256 bondId, uint256 shares, uint256 paid) = _bondPaying(vault, BOB, 300 * USDC);
        uint256 part = _mulDivUp(tokens, shares, supply);
        uint256 cashPart = _mulDivUp(cash, shares, supply);
        uint256 toMarket = _marketSide(_markets()) - marketSide;
        assertEq(rain.balanceOf(address(vault), 0), tokens + part, "bought its fraction of the position");
        assertEq(usdc.balanceOf(address(vault)), cash + cashPart, "paid its fraction of the cash");
        assertEq(paid, cashPart + toMarket, "paid = cash part + the purchase");
        assertLe(paid, 300 * USDC, "paid at most the amount");
        assertTrue(paid > 290 * USDC, "spent nearly all of it");
        assertLe(shares, atMarks, "no more shares than the marks allow");
        assertGe(shares, atMarks * 97 / 100, "scaled down only by the purchase's price impact and fee");
        assertEq(vault.totalShares(), supply + shares, "totalShares");
        assertEq(usdc.allowance(address(vault), address(rain)), 0, "no allowance left behind");
        (,,, uint256 principal, uint256 highWater) = vault.bonds(bondId);
        assertEq(principal, paid, "principal is what was paid");
        assertEq(highWater, paid, "high-water starts at what was paid");

        // Replayed from the same state: the purchase costs what the market quoted for it, and the
        // event reports what was paid.
        vm.revertToState(snapshot);
        (uint256 quoted,,) = rain.quoteBuyTokens(0, part);
        assertEq(toMarket, quoted, "the purchase cost its quote");
        _fund(BOB, 300 * USDC, address(vault));
        vm.expectEmit(true, true, false, true);
        emit AgentVault.Bonded(2, BOB, paid, shares, supply + shares);
        vm.prank(BOB);
        vault.bond(300 * USDC);
    }

    /// Every outcome of every trading market grows by the bond's fraction (rounded up), so no
    /// earlier share holds less cash or fewer tokens than before.
    function test_bond_buysEveryHeldOutcomeWithoutDiluting() public {
        _bond(vault, ALICE, 1_000 * USDC);
        _vaultBuy(vault, "rain", 0, 50 * USDC);
        _vaultBuy(vault, "rain", 1, 20 * USDC);
        _vaultBuy(vault, "snow", 2, 30 * USDC);
        _vaultBuy(vault, "snow", 0, 10 * USDC);
        Market[] memory markets = _markets();
        uint256 supply = vault.totalShares();
        uint256 cash = usdc.balanceOf(address(vault));
        uint256[5] memory held = [
            rain.balanceOf(address(vault), 0),
            rain.balanceOf(address(vault), 1),
            snow.balanceOf(address(vault), 0),
            snow.balanceOf(address(vault), 1),
            snow.balanceOf(address(vault), 2)
        ];
        uint256 marketSide = _marketSide(markets);

        (, uint256 shares, uint256 paid) = _bondPaying(vault, BOB, 777 * USDC);
        uint256 after_ = supply + shares;
        uint256[5] memory now_ = [
            rain.balanceOf(address(vault), 0),
            rain.balanceOf(address(vault), 1),
            snow.balanceOf(address(vault), 0),
            snow.balanceOf(address(vault), 1),
            snow.balanceOf(address(vault), 2)
        ];
        for (uint256 i; i < 5; ++i) {
            assertEq(now_[i], held[i] + _mulDivUp(held[i], shares, supply), "the fraction of each outcome");
            assertGe(now_[i] * supply, held[i] * after_, "tokens per share not lower");
        }
        uint256 cashNow = usdc.balanceOf(address(vault));
        assertEq(cashNow, cash + _mulDivUp(cash, shares, supply), "the fraction of the cash");
        assertGe(cashNow * supply, cash * after_, "cash per share not lower");
        assertLe(paid, 777 * USDC, "paid at most the amount");
        assertEq(paid, cashNow - cash + _marketSide(markets) - marketSide, "paid = cash part + purchases");
        assertEq(vault.openMarkets().length, 2, "no position opened or closed");
    }

    /// A market that no longer trades but is not settled is paid for in cash at the most it can pay
    /// (its largest holding of one outcome), not at its mark: knowing the outcome early buys nothing.
    function test_bond_paysClosedMarketAtItsCeilingInCash() public {
        _bond(vault, ALICE, 100 * USDC);
        uint256 tokens = _vaultBuy(vault, "snow", 1, 30 * USDC);
        vm.prank(HOUSE);
        snow.close();
        uint256 cash = usdc.balanceOf(address(vault));
        uint256 mark = tokens;
        assertTrue(vault.positionValue(address(snow)) < tokens, "marked below 1 per token");
        assertEq(vault.settlementCeiling(address(snow)), tokens, "the ceiling is the holding");
        uint256 marketSide = _marketSide(_markets());

        (, uint256 shares, uint256 paid) = _bondPaying(vault, BOB, 100 * USDC);
        // Sized from the mark, then scaled down to what the ceiling costs (rounding aside).
        assertApproxEqAbs(shares, 100 * USDC * (100 * USDC) / (cash + mark), 1, "amount x supply / (cash + ceiling)");
        assertEq(paid, _mulDivUp(cash + mark, shares, 100 * USDC), "its fraction of cash + ceiling, in cash");
        assertEq(usdc.balanceOf(address(vault)), cash + paid, "all of it stays in the vault");
        assertEq(_marketSide(_markets()), marketSide, "nothing bought from a closed market");
        assertEq(snow.balanceOf(address(vault), 1), tokens, "no tokens bought");
        assertEq(usdc.balanceOf(BOB), 100 * USDC - paid, "the rest refunded");
    }

    function test_bond_claimsSettledMarketsFirst() public {
        _bond(vault, ALICE, 100 * USDC);
        uint256 tokens = _vaultBuy(vault, "rain", 0, 40 * USDC);
        vm.startPrank(HOUSE);
        rain.close();
        rain.resolve(0);
        vm.stopPrank();
        (, uint256 shares, uint256 paid) = _bondPaying(vault, BOB, 100 * USDC);
        assertEq(vault.openMarkets().length, 0, "claimed and closed");
        assertEq(rain.balanceOf(address(vault), 0), 0, "winning tokens redeemed");
        uint256 cash = 60 * USDC + tokens;
        assertEq(shares, 100 * USDC * (100 * USDC) / cash, "priced on the cash after the claim");
        assertEq(paid, _mulDivUp(cash, shares, 100 * USDC), "its fraction of that cash");
        assertEq(usdc.balanceOf(address(vault)), cash + paid, "vault cash");
    }

    function test_bond_afterProfitGetsFewerShares() public {
        _bond(vault, ALICE, 100 * USDC);
        usdc.mint(address(vault), 100 * USDC);
        (, uint256 shares, uint256 paid) = _bondPaying(vault, BOB, 100 * USDC);
        assertEq(shares, 50 * USDC, "NAV per share doubled");
        assertEq(paid, 100 * USDC, "nothing to refund");
    }

    /// With cash only, the shares are floored and the cash part rounded up: the few units the
    /// shares cannot buy are refunded.
    function test_bond_refundsWhatTheSharesDoNotCost() public {
        _bond(vault, ALICE, 100 * USDC);
        usdc.mint(address(vault), 200 * USDC + 1); // 300.000001 USDC for 100e6 shares
        uint256 cash = 300 * USDC + 1;
        (, uint256 shares, uint256 paid) = _bondPaying(vault, BOB, 3 * USDC);
        assertEq(shares, 3 * USDC * (100 * USDC) / cash, "floored");
        assertEq(paid, _mulDivUp(cash, shares, 100 * USDC), "its fraction, rounded up");
        assertEq(paid, 3 * USDC - 2, "two units the shares do not cost");
        assertEq(usdc.balanceOf(BOB), 3 * USDC - paid, "refunded exactly amount - paid");
        assertEq(usdc.balanceOf(address(vault)), cash + paid, "the vault keeps what was paid");
    }

    function test_bond_refusesInactiveAgent() public {
        vm.prank(AGENT);
        registry.setActive(AGENT, false);
        _fund(ALICE, 100 * USDC, address(vault));
        vm.prank(ALICE);
        vm.expectRevert(AgentVault.AgentInactive.selector);
        vault.bond(100 * USDC);
        vm.prank(OPERATOR);
        registry.setActive(AGENT, true);
        vm.prank(ALICE);
        vault.bond(100 * USDC);
    }

    function test_bond_refusesLessThanOneUsdc() public {
        _fund(ALICE, 10 * USDC, address(vault));
        vm.startPrank(ALICE);
        vm.expectRevert(AgentVault.BondTooSmall.selector);
        vault.bond(USDC - 1);
        vault.bond(USDC);
        vm.stopPrank();
    }

    function test_bond_refusesWhenSharesHaveNoValue() public {
        _bond(vault, ALICE, 100 * USDC);
        _vaultBuy(vault, "rain", 1, 100 * USDC);
        vm.prank(HOUSE);
        rain.close();
        vm.prank(HOUSE);
        rain.resolve(0);
        assertEq(vault.netAssetValue(), 0, "only losing tokens left");
        _fund(BOB, 10 * USDC, address(vault));
        vm.prank(BOB);
        vm.expectRevert(AgentVault.NoAssetValue.selector);
        vault.bond(10 * USDC);
    }

    function test_bond_refusesWithoutFunds() public {
        vm.prank(ALICE);
        vm.expectRevert();
        vault.bond(10 * USDC);
    }

    function _markets() internal view returns (Market[] memory markets) {
        markets = new Market[](2);
        markets[0] = rain;
        markets[1] = snow;
    }

    // ------------------------------------------------------------ trading

    function test_trading_onlyManager() public {
        _bond(vault, ALICE, 100 * USDC);
        vm.startPrank(ALICE);
        vm.expectRevert(AgentVault.NotManager.selector);
        vault.buy(_id("rain"), 0, 10 * USDC, 0);
        vm.expectRevert(AgentVault.NotManager.selector);
        vault.sell(_id("rain"), 0, 1, 0);
        vm.expectRevert(AgentVault.NotManager.selector);
        vault.claim(_id("rain"));
        vm.stopPrank();
    }

    function test_trading_refusesUnknownMarket() public {
        _bond(vault, ALICE, 100 * USDC);
        vm.startPrank(AGENT);
        vm.expectRevert(AgentVault.UnknownMarket.selector);
        vault.buy(_id("hail"), 0, 10 * USDC, 0);
        vm.expectRevert(AgentVault.UnknownMarket.selector);
        vault.sell(_id("hail"), 0, 1, 0);
        vm.expectRevert(AgentVault.UnknownMarket.selector);
        vault.claim(_id("hail"));
        vm.stopPrank();
    }

    function test_buySell_tradeAsTheVaultAndTrackThePosition() public {
        _bond(vault, ALICE, 100 * USDC);
        (uint256 quoted,,) = rain.quoteBuy(0, 30 * USDC);
        vm.startPrank(AGENT);
        uint256 tokens = vault.buy(_id("rain"), 0, 30 * USDC, quoted);
        assertEq(tokens, quoted, "tokens as quoted");
        assertEq(rain.balanceOf(address(vault), 0), tokens, "the vault holds the tokens");
        assertEq(usdc.balanceOf(address(vault)), 70 * USDC, "spent from the vault");
        assertEq(usdc.allowance(address(vault), address(rain)), 0, "no allowance left behind");
        assertEq(vault.openMarkets().length, 1, "position tracked");
        assertTrue(vault.isOpen(address(rain)), "isOpen");

        vault.sell(_id("rain"), 0, tokens / 2, 0);
        assertEq(vault.openMarkets().length, 1, "still open after a partial sale");
        (uint256 back,,) = rain.quoteSell(0, tokens - tokens / 2);
        assertEq(vault.sell(_id("rain"), 0, tokens - tokens / 2, back), back, "sold as quoted");
        vm.stopPrank();
        assertEq(vault.openMarkets().length, 0, "closed once empty");
        assertTrue(!vault.isOpen(address(rain)), "not open");
        assertLe(usdc.balanceOf(address(vault)), 100 * USDC, "a round trip does not profit");
    }

    function test_buy_capsOpenPositions() public {
        _bond(vault, ALICE, 1_000 * USDC);
        // rain and snow, then 14 more: 16 open positions.
        _vaultBuy(vault, "rain", 0, USDC);
        _vaultBuy(vault, "snow", 0, USDC);
        for (uint256 i; i < 15; ++i) {
            string memory slug = string.concat("m", string(abi.encodePacked(bytes1(uint8(65 + i)))));
            _market(slug, 2, 100 * USDC, 0);
            if (i < 14) _vaultBuy(vault, slug, 0, USDC);
        }
        assertEq(vault.openMarkets().length, vault.MAX_POSITIONS(), "16 open");
        vm.startPrank(AGENT);
        vm.expectRevert(AgentVault.TooManyPositions.selector);
        vault.buy(_id("mO"), 0, USDC, 0);
        vault.buy(_id("rain"), 1, USDC, 0);
        vault.sell(_id("snow"), 0, snow.balanceOf(address(vault), 0), 0);
        vault.buy(_id("mO"), 0, USDC, 0);
        vm.stopPrank();
        assertEq(vault.openMarkets().length, 16, "a closed position frees a place");
    }

    function test_claim_refusesUnsettledMarket() public {
        _bond(vault, ALICE, 100 * USDC);
        _vaultBuy(vault, "rain", 0, 10 * USDC);
        vm.prank(HOUSE);
        rain.close();
        vm.prank(AGENT);
        vm.expectRevert(AgentVault.NotSettled.selector);
        vault.claim(_id("rain"));
    }

    function test_claim_resolvedPaysWinningTokens() public {
        _bond(vault, ALICE, 100 * USDC);
        uint256 tokens = _vaultBuy(vault, "rain", 0, 10 * USDC);
        _vaultBuy(vault, "rain", 1, 5 * USDC);
        vm.startPrank(HOUSE);
        rain.close();
        rain.resolve(0);
        vm.stopPrank();
        assertEq(vault.positionValue(address(rain)), tokens, "a winning token is worth 1 USDC");
        vm.prank(AGENT);
        assertEq(vault.claim(_id("rain")), tokens, "claims the winning tokens");
        assertEq(usdc.balanceOf(address(vault)), 85 * USDC + tokens, "paid to the vault");
        assertEq(vault.openMarkets().length, 0, "position closed");
    }

    function test_claim_voidedPaysEveryTokenAtOneOverN() public {
        _bond(vault, ALICE, 100 * USDC);
        uint256 a = _vaultBuy(vault, "snow", 0, 10 * USDC);
        uint256 b = _vaultBuy(vault, "snow", 2, 7 * USDC);
        vm.prank(HOUSE);
        snow.void();
        assertEq(vault.positionValue(address(snow)), (a + b) / 3, "voided: tokens / n");
        vm.prank(AGENT);
        assertEq(vault.claim(_id("snow")), (a + b) / 3, "claimed");
        assertEq(vault.openMarkets().length, 0, "position closed");
    }

    function test_claim_losingTokensOnlyClosesThePosition() public {
        _bond(vault, ALICE, 100 * USDC);
        _vaultBuy(vault, "rain", 1, 10 * USDC);
        vm.startPrank(HOUSE);
        rain.close();
        rain.resolve(0);
        vm.stopPrank();
        vm.prank(AGENT);
        assertEq(vault.claim(_id("rain")), 0, "nothing to claim");
        assertEq(vault.openMarkets().length, 0, "position closed");
    }

    // ------------------------------------------------------------ valuation

    function test_netAssetValue_marksPositionsAtPrices() public {
        _bond(vault, ALICE, 100 * USDC);
        uint256 a = _vaultBuy(vault, "rain", 0, 20 * USDC);
        uint256 b = _vaultBuy(vault, "snow", 1, 10 * USDC);
        uint256[] memory pr = rain.prices();
        uint256[] memory ps = snow.prices();
        assertEq(vault.positionValue(address(rain)), a * pr[0] / 1e18, "rain marked");
        assertEq(vault.positionValue(address(snow)), b * ps[1] / 1e18, "snow marked");
        assertEq(vault.netAssetValue(), 70 * USDC + a * pr[0] / 1e18 + b * ps[1] / 1e18, "cash plus marks");
    }

    function test_bondValue_isShareOfNavLessFeeAboveHighWater() public {
        _bond(vault, ALICE, 100 * USDC);
        _bond(vault, BOB, 300 * USDC);
        (uint256 value, uint256 fee) = vault.bondValue(1);
        assertEq(value, 100 * USDC, "at cost");
        assertEq(fee, 0, "no fee without profit");
        usdc.mint(address(vault), 40 * USDC);
        (value, fee) = vault.bondValue(1);
        assertEq(fee, 1 * USDC, "10% of the 10 USDC profit");
        assertEq(value, 109 * USDC, "110 gross less the fee");
        (value,) = vault.bondValue(99);
        assertEq(value, 0, "unknown bond");
    }
}
