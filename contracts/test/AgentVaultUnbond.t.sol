// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AgentFixture} from "./utils/AgentFixture.sol";
import {AgentVault} from "../src/AgentVault.sol";
import {Market} from "../src/Market.sol";

/// @dev Unbonding: lockup, who may, what is paid (cash, sale proceeds, in kind), the fee, the quote.
contract AgentVaultUnbondTest is AgentFixture {
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
        _bond(vault, ALICE, 100 * USDC);
        _bond(vault, BOB, 300 * USDC);
    }

    function _afterLockup() internal {
        vm.warp(block.timestamp + 1 days);
    }

    function _unbond(address staker, uint256 bondId, uint256 shares) internal returns (uint256 paid, uint256 fee) {
        vm.prank(staker);
        return vault.unbond(bondId, shares);
    }

    // ------------------------------------------------------------ refusals

    function test_unbond_lockedUntilLockupEnds() public {
        uint256 until = block.timestamp + 1 days;
        vm.warp(until - 1);
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(AgentVault.Locked.selector, until));
        vault.unbond(1, 1);
        vm.warp(until);
        _unbond(ALICE, 1, 1);
    }

    function test_unbond_refusals() public {
        _afterLockup();
        vm.prank(ALICE);
        vm.expectRevert(AgentVault.UnknownBond.selector);
        vault.unbond(99, 1);
        vm.prank(BOB);
        vm.expectRevert(AgentVault.NotStaker.selector);
        vault.unbond(1, 1);
        vm.startPrank(ALICE);
        vm.expectRevert(AgentVault.InvalidShares.selector);
        vault.unbond(1, 0);
        vm.expectRevert(AgentVault.InvalidShares.selector);
        vault.unbond(1, 100 * USDC + 1);
        vm.stopPrank();
    }

    // ------------------------------------------------------------ cash, fee, high-water

    function test_unbond_partialThenFull() public {
        _afterLockup();
        vm.expectEmit(true, true, false, true);
        emit AgentVault.Unbonded(1, ALICE, 40 * USDC, 40 * USDC, 0, 60 * USDC, 60 * USDC, 60 * USDC, 360 * USDC);
        (uint256 paid, uint256 fee) = _unbond(ALICE, 1, 40 * USDC);
        assertEq(paid, 40 * USDC, "pro rata cash");
        assertEq(fee, 0, "no profit, no fee");
        assertEq(usdc.balanceOf(ALICE), 40 * USDC, "paid to the staker");
        (paid,) = _unbond(ALICE, 1, 60 * USDC);
        assertEq(paid, 60 * USDC, "the rest");
        (address staker,, uint256 shares, uint256 principal, uint256 highWater) = vault.bonds(1);
        assertEq(staker, ALICE, "the bond stays on record");
        assertEq(shares + principal + highWater, 0, "emptied");
        assertEq(vault.totalShares(), 300 * USDC, "Bob's shares remain");
        assertEq(usdc.balanceOf(address(vault)), 300 * USDC, "Bob's cash remains");
    }

    function test_unbond_feeOnlyAboveHighWaterPaidToManager() public {
        usdc.mint(address(vault), 400 * USDC); // the vault doubles
        _afterLockup();
        (uint256 paid, uint256 fee) = _unbond(ALICE, 1, 50 * USDC);
        assertEq(fee, 5 * USDC, "10% of the 50 USDC above the high-water part");
        assertEq(paid, 95 * USDC, "gross less the fee");
        assertEq(usdc.balanceOf(AGENT), 5 * USDC, "fee to the manager");
        (,,, uint256 principal, uint256 highWater) = vault.bonds(1);
        assertEq(principal, 50 * USDC, "principal pro rata");
        assertEq(highWater, 100 * USDC, "high-water moves to the value per share paid");
        (paid, fee) = _unbond(ALICE, 1, 50 * USDC);
        assertEq(fee, 0, "no new profit since, no fee");
        assertEq(paid, 100 * USDC, "the rest at the same value");
        assertEq(usdc.balanceOf(AGENT), 5 * USDC, "the manager got only the fee");
    }

    function test_unbond_noFeeAtALoss() public {
        uint256 tokens = _vaultBuy(vault, "rain", 0, 100 * USDC);
        vm.prank(AGENT);
        vault.sell(_id("rain"), 0, tokens, 0);
        _afterLockup();
        (uint256 paid, uint256 fee) = _unbond(BOB, 2, 300 * USDC);
        assertEq(fee, 0, "no fee below the high-water mark");
        assertTrue(paid < 300 * USDC, "the loss is shared");
        assertEq(usdc.balanceOf(AGENT), 0, "nothing to the manager");
        (,,,, uint256 highWater) = vault.bonds(2);
        assertEq(highWater, 0, "high-water gone with the shares");
    }

    // ------------------------------------------------------------ positions

    function test_unbond_sellsItsFractionOfTradingPositions() public {
        uint256 a = _vaultBuy(vault, "rain", 0, 100 * USDC);
        uint256 b = _vaultBuy(vault, "snow", 1, 40 * USDC);
        _afterLockup();
        (uint256 fromRain,,) = rain.quoteSell(0, a / 4);
        (uint256 fromSnow,,) = snow.quoteSell(1, b / 4);
        (uint256 paid, uint256 fee) = _unbond(ALICE, 1, 100 * USDC);
        assertEq(paid + fee, 260 * USDC / 4 + fromRain + fromSnow, "a quarter of the cash plus the sales");
        assertEq(rain.balanceOf(address(vault), 0), a - a / 4, "a quarter of rain sold");
        assertEq(snow.balanceOf(address(vault), 1), b - b / 4, "a quarter of snow sold");
        assertEq(usdc.balanceOf(ALICE), paid, "paid");
        assertEq(rain.balanceOf(ALICE, 0), 0, "nothing in kind while trading");
    }

    function test_unbond_lastStakerSellsEverything() public {
        _vaultBuy(vault, "rain", 0, 100 * USDC);
        _vaultBuy(vault, "snow", 2, 40 * USDC);
        _afterLockup();
        _unbond(ALICE, 1, 100 * USDC);
        _unbond(BOB, 2, 300 * USDC);
        assertEq(vault.totalShares(), 0, "no shares");
        assertEq(vault.openMarkets().length, 0, "no positions");
        assertLe(usdc.balanceOf(address(vault)), 1, "at most rounding dust left");
    }

    function test_quoteUnbond_isWhatUnbondPays() public {
        usdc.mint(address(vault), 100 * USDC);
        _vaultBuy(vault, "rain", 1, 120 * USDC);
        _vaultBuy(vault, "snow", 0, 60 * USDC);
        (uint256 quoted, uint256 quotedFee) = _quote(vault, 2, 123 * USDC); // lockup and caller ignored
        assertTrue(quoted != 0, "quoted");
        _afterLockup();
        (uint256 paid, uint256 fee) = _unbond(BOB, 2, 123 * USDC);
        assertEq(paid, quoted, "paid as quoted");
        assertEq(fee, quotedFee, "fee as quoted");
    }

    function test_unbond_paysClosedUnresolvedMarketInKind() public {
        uint256 tokens = _vaultBuy(vault, "rain", 0, 100 * USDC);
        vm.prank(HOUSE);
        rain.close();
        _afterLockup();
        (uint256 paid, uint256 fee) = _unbond(ALICE, 1, 100 * USDC);
        assertEq(paid + fee, 300 * USDC / 4, "a quarter of the cash only");
        assertEq(rain.balanceOf(ALICE, 0), tokens / 4, "a quarter of the tokens in kind");
        assertEq(rain.balanceOf(address(vault), 0), tokens - tokens / 4, "the rest stays");
        vm.prank(HOUSE);
        rain.resolve(0);
        vm.prank(ALICE);
        assertEq(rain.claim(), tokens / 4, "the staker claims them after resolution");
    }

    function test_unbond_paysInKindPastClosesAt() public {
        uint256 tokens = _vaultBuy(vault, "snow", 2, 50 * USDC);
        vm.warp(block.timestamp + 7 days);
        assertTrue(!snow.isTrading() && snow.status() == Market.Status.Active, "no longer trading, not closed");
        _unbond(BOB, 2, 300 * USDC);
        assertEq(snow.balanceOf(BOB, 2), tokens * 3 / 4, "three quarters in kind");
    }

    function test_unbond_claimsSettledMarketsFirst() public {
        uint256 won = _vaultBuy(vault, "rain", 0, 100 * USDC);
        uint256 lost = _vaultBuy(vault, "rain", 1, 20 * USDC);
        vm.startPrank(HOUSE);
        rain.close();
        rain.resolve(0);
        vm.stopPrank();
        _afterLockup();
        (uint256 paid, uint256 fee) = _unbond(ALICE, 1, 100 * USDC);
        assertEq(paid + fee, (280 * USDC + won) / 4, "a quarter of the cash after the claim");
        assertEq(rain.balanceOf(address(vault), 0), 0, "winning tokens claimed");
        assertEq(rain.balanceOf(address(vault), 1), lost, "losing tokens stay, worthless");
        assertEq(rain.balanceOf(ALICE, 0), 0, "nothing in kind");
        assertEq(vault.openMarkets().length, 0, "position closed");
    }

    function test_unbond_voidedMarket() public {
        uint256 a = _vaultBuy(vault, "snow", 0, 30 * USDC);
        uint256 b = _vaultBuy(vault, "snow", 1, 30 * USDC);
        vm.prank(HOUSE);
        snow.void();
        _afterLockup();
        (uint256 paid, uint256 fee) = _unbond(BOB, 2, 150 * USDC);
        assertEq(paid + fee, (340 * USDC + (a + b) / 3) * 150 / 400, "150/400 of the cash after claiming at 1/n");
        assertEq(vault.openMarkets().length, 0, "position closed");
    }

    function test_unbond_goesOnWhenAgentInactive() public {
        _vaultBuy(vault, "rain", 0, 10 * USDC);
        vm.prank(OPERATOR);
        registry.setActive(AGENT, false);
        _afterLockup();
        (uint256 paid,) = _unbond(ALICE, 1, 100 * USDC);
        assertTrue(paid > 90 * USDC, "paid");
    }
}
