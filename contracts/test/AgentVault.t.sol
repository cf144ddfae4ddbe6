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

    function test_bond_laterAtNavPerShare() public {
        _bond(vault, ALICE, 100 * USDC);
        _vaultBuy(vault, "rain", 0, 40 * USDC);
        uint256 nav = vault.netAssetValue();
        assertTrue(nav != 100 * USDC, "the position is marked at the price after the buy");
        (, uint256 shares) = _bond(vault, BOB, 300 * USDC);
        assertEq(shares, 300 * USDC * (100 * USDC) / nav, "amount x totalShares / NAV");
        assertEq(vault.totalShares(), 100 * USDC + shares, "totalShares");
        (uint256 bobValue,) = vault.bondValue(2);
        assertLe(bobValue, 300 * USDC, "a new bond is worth no more than it paid");
        assertApproxEqAbs(bobValue, 300 * USDC, 3, "and no less but for rounding");
    }

    function test_bond_afterProfitGetsFewerShares() public {
        _bond(vault, ALICE, 100 * USDC);
        usdc.mint(address(vault), 100 * USDC);
        (, uint256 shares) = _bond(vault, BOB, 100 * USDC);
        assertEq(shares, 50 * USDC, "NAV per share doubled");
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
