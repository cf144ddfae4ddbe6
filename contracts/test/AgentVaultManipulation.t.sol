// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AgentFixture} from "./utils/AgentFixture.sol";
import {AgentVault} from "../src/AgentVault.sol";
import {Market} from "../src/Market.sol";
import {TestUSDC} from "../src/TestUSDC.sol";

/// @dev Runs the whole manipulation in one transaction: push the held outcome's price down, bond,
/// push it back, unbond.
contract Manipulator {
    function attack(TestUSDC usdc, AgentVault vault, Market market, uint256 push, uint256 amount) external {
        usdc.approve(address(market), type(uint256).max);
        usdc.approve(address(vault), type(uint256).max);
        uint256 pushed = market.buy(1, push, 0);
        (uint256 bondId, uint256 shares) = vault.bond(amount);
        market.sell(1, pushed, 0);
        vault.unbond(bondId, shares);
    }

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }
}

/// @dev The attack a mark-priced bond allowed: an outsider pushes down the price of what the vault
/// holds (a large buy of the other outcome), bonds at the low value, pushes the price back (LMSR is
/// path independent, so that costs only the fee) and unbonds. Minting at amount x totalShares / NAV
/// this made +761 USDC on a 5,000 USDC bond against a 1,000 USDC staker; a bond that buys into the
/// vault as it stands makes it pay nothing, and the staker loses nothing.
contract AgentVaultManipulationTest is AgentFixture {
    address internal constant AGENT = address(0xA6E7);
    address internal constant ALICE = address(0xA1);
    address internal constant MALLORY = address(0x3A11);
    uint256 internal constant PUSH = 10_000 * USDC;
    uint256 internal constant AMOUNT = 5_000 * USDC;
    uint256 internal constant FUNDS = 20_000 * USDC;
    /// @dev The rounding the vault's own marks (floored per position) may show.
    uint256 internal constant DUST = 3;

    AgentVault internal vault;
    Market internal market;

    /// Alice's 1,000 USDC, 600 of them in outcome 0 of a market with b = 1,000; no lockup.
    function _setUpVault(uint256 feeBps) internal {
        market = _market("held", 2, 1_000 * USDC, feeBps);
        vault = _register(AGENT, 1000, 0);
        _bond(vault, ALICE, 1_000 * USDC);
        _vaultBuy(vault, "held", 0, 600 * USDC);
    }

    /// What Alice's full unbond pays without any manipulation (the state is rolled back after).
    function _aliceBaseline() internal returns (uint256 paid) {
        uint256 snapshot = vm.snapshotState();
        vm.prank(ALICE);
        (paid,) = vault.unbond(1, 1_000 * USDC);
        vm.revertToState(snapshot);
    }

    function _assertAliceNotHurt(uint256 valueBefore, uint256 baseline) internal {
        (uint256 valueAfter,) = vault.bondValue(1);
        assertGe(valueAfter + DUST, valueBefore, "Alice's bond lost value");
        vm.prank(ALICE);
        (uint256 paid,) = vault.unbond(1, 1_000 * USDC);
        assertGe(paid + DUST, baseline, "Alice's unbond paid less than without the manipulation");
    }

    function _attackInOneBlock(uint256 feeBps) internal {
        _setUpVault(feeBps);
        uint256 baseline = _aliceBaseline();
        (uint256 valueBefore,) = vault.bondValue(1);
        _fund(MALLORY, FUNDS, address(vault));
        vm.prank(MALLORY);
        usdc.approve(address(market), type(uint256).max);

        vm.prank(MALLORY);
        uint256 pushed = market.buy(1, PUSH, 0);
        assertLe(market.prices()[0], 0.001e18, "the held outcome's price was pushed down");
        uint256 supply = vault.totalShares();
        uint256 cash = usdc.balanceOf(address(vault));
        uint256 held = market.balanceOf(address(vault), 0);
        assertTrue(AMOUNT * supply / vault.netAssetValue() > 10 * supply, "marks would have sold shares cheaply");

        vm.prank(MALLORY);
        (uint256 bondId, uint256 shares) = vault.bond(AMOUNT);
        uint256 total = supply + shares;
        assertGe(usdc.balanceOf(address(vault)) * supply, cash * total, "cash per share not lower");
        assertGe(market.balanceOf(address(vault), 0) * supply, held * total, "tokens per share not lower");

        vm.startPrank(MALLORY);
        market.sell(1, pushed, 0);
        vault.unbond(bondId, shares);
        vm.stopPrank();
        assertLe(usdc.balanceOf(MALLORY), FUNDS, "the manipulation paid");
        assertEq(market.balanceOf(MALLORY, 0) + market.balanceOf(MALLORY, 1), 0, "nothing kept in kind");
        _assertAliceNotHurt(valueBefore, baseline);
    }

    function _attackInOneTransaction(uint256 feeBps) internal {
        _setUpVault(feeBps);
        uint256 baseline = _aliceBaseline();
        (uint256 valueBefore,) = vault.bondValue(1);
        Manipulator manipulator = new Manipulator();
        usdc.mint(address(manipulator), FUNDS);
        manipulator.attack(usdc, vault, market, PUSH, AMOUNT);
        assertLe(usdc.balanceOf(address(manipulator)), FUNDS, "the manipulation paid");
        _assertAliceNotHurt(valueBefore, baseline);
    }

    function test_manipulation_doesNotPay_feeFree() public {
        _attackInOneBlock(0);
    }

    function test_manipulation_doesNotPay_onePercentFee() public {
        _attackInOneBlock(100);
    }

    function test_manipulation_doesNotPay_oneTransaction_feeFree() public {
        _attackInOneTransaction(0);
    }

    function test_manipulation_doesNotPay_oneTransaction_onePercentFee() public {
        _attackInOneTransaction(100);
    }
}
