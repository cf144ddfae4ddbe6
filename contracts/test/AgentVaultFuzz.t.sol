// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AgentFixture} from "./utils/AgentFixture.sol";
import {AgentVault} from "../src/AgentVault.sol";
import {Market} from "../src/Market.sol";

/// @dev Bond and unbond arithmetic over random amounts, fees and market outcomes (runs: foundry.toml
/// [fuzz]).
contract AgentVaultFuzzTest is AgentFixture {
    address internal constant AGENT = address(0xA6E7);
    address internal constant ALICE = address(0xA1);
    address internal constant BOB = address(0xB0B);
    address internal constant OUTSIDER = address(0x0575);
    uint256 internal constant LOCKUP = 1 days;
    Market internal rain;

    function setUp() public override {
        super.setUp();
        rain = _market("rain", 2, 1_000 * USDC, 100);
    }

    function _vault(uint256 feeBps) internal returns (AgentVault) {
        return _register(AGENT, bound(feeBps, 0, 2000), LOCKUP);
    }

    /// A first bond mints one share per unit and keeps the whole amount.
    function testFuzz_firstBondMintsTheAmount(uint256 amount) public {
        AgentVault vault = _vault(0);
        amount = bound(amount, USDC, 1e12 * USDC);
        (, uint256 shares, uint256 paid) = _bondPaying(vault, ALICE, amount);
        assertEq(shares, amount, "shares = amount");
        assertEq(paid, amount, "nothing refunded");
        assertEq(vault.totalShares(), amount, "totalShares");
    }

    /// @dev The vault before a bond.
    struct Pre {
        uint256 supply;
        uint256 cash;
        uint256[2] held;
        uint256 atMarks;
        uint256 marketSide;
        uint256 aliceValue;
    }

    /// A later bond, after the agent's buy and an outsider's push of the price either way: pays at
    /// most the amount and is refunded exactly the rest; pays its fraction of the cash and buys the
    /// same fraction of the position (both rounded up), so no earlier share holds less cash or fewer
    /// tokens, and the earlier bond's value does not fall.
    function testFuzz_bondBuysIntoTheVault(
        uint256 first,
        uint256 profit,
        uint256 spend,
        uint256 outcome,
        uint256 push,
        uint256 second
    ) public {
        AgentVault vault = _vault(0);
        first = bound(first, USDC, 1e6 * USDC);
        _bond(vault, ALICE, first);
        usdc.mint(address(vault), bound(profit, 0, 1e6 * USDC));
        spend = bound(spend, 0, first > 20_000 * USDC ? 20_000 * USDC : first);
        outcome = bound(outcome, 0, 1);
        if (spend >= USDC) _vaultBuy(vault, "rain", outcome, spend);
        push = bound(push, 0, 20_000 * USDC);
        if (push >= USDC) {
            _fund(OUTSIDER, push, address(rain));
            vm.prank(OUTSIDER);
            rain.buy(uint256(keccak256(abi.encode(push))) % 2, push, 0);
        }

        second = bound(second, USDC, 1e6 * USDC);
        Pre memory pre;
        pre.supply = vault.totalShares();
        pre.cash = usdc.balanceOf(address(vault));
        pre.held = [rain.balanceOf(address(vault), 0), rain.balanceOf(address(vault), 1)];
        pre.atMarks = second * pre.supply / vault.netAssetValue();
        pre.marketSide = _marketSide(_rain());
        (pre.aliceValue,) = vault.bondValue(1);
        _fund(BOB, second, address(vault));
        vm.prank(BOB);
        try vault.bond(second) returns (uint256 bondId, uint256 shares) {
            _checkBond(vault, pre, second, bondId, shares);
        } catch (bytes memory reason) {
            _checkRefusal(reason, pre);
        }
    }

    /// A bond may be refused only when too small to buy a single share, or when the purchase its
    /// amount is sized for at the marks is more than the market sells in one trade (40 b).
    function _checkRefusal(bytes memory reason, Pre memory pre) internal view {
        if (bytes4(reason) == AgentVault.BondTooSmall.selector) {
            assertLe(pre.atMarks, 10, "refused a bond worth several shares");
            return;
        }
        assertTrue(bytes4(reason) == Market.TradeTooLarge.selector, "bond reverted");
        bool tooLarge;
        for (uint256 i; i < 2; ++i) {
            uint256 part = _mulDivUp(pre.held[i], pre.atMarks, pre.supply);
            if (part == 0) continue;
            try rain.quoteBuyTokens(i, part) {}
            catch {
                tooLarge = true;
            }
        }
        assertTrue(tooLarge, "TradeTooLarge but the market would sell the part");
    }

    function _checkBond(AgentVault vault, Pre memory pre, uint256 amount, uint256 bondId, uint256 shares)
        internal
        view
    {
        uint256 paid = amount - usdc.balanceOf(BOB);
        assertLe(paid, amount, "paid at most the amount");
        (,,, uint256 principal,) = vault.bonds(bondId);
        assertEq(principal, paid, "principal = paid");
        assertLe(shares, pre.atMarks, "no more shares than the marks allow");
        uint256 total = pre.supply + shares;
        assertEq(vault.totalShares(), total, "totalShares");
        uint256 cash = usdc.balanceOf(address(vault));
        assertEq(cash, pre.cash + _mulDivUp(pre.cash, shares, pre.supply), "its fraction of the cash");
        assertEq(paid, cash - pre.cash + _marketSide(_rain()) - pre.marketSide, "paid = cash part + purchases");
        assertGe(cash * pre.supply, pre.cash * total, "cash per share not lower");
        for (uint256 i; i < 2; ++i) {
            uint256 tokens = rain.balanceOf(address(vault), i);
            assertEq(tokens, pre.held[i] + _mulDivUp(pre.held[i], shares, pre.supply), "its fraction of the tokens");
            assertGe(tokens * pre.supply, pre.held[i] * total, "tokens per share not lower");
        }
        (uint256 aliceAfter,) = vault.bondValue(1);
        assertGe(aliceAfter + 2, pre.aliceValue, "an earlier bond is not diluted");
    }

    function _rain() internal view returns (Market[] memory markets) {
        markets = new Market[](1);
        markets[0] = rain;
    }

    /// With cash only, an unbond pays exactly its fraction, less the fee on the part above the
    /// high-water mark, and the fee goes to the manager.
    function testFuzz_unbondPaysItsFractionOfCash(uint256 feeBps, uint256 amount, uint256 profit, uint256 shares)
        public
    {
        AgentVault vault = _vault(feeBps);
        amount = bound(amount, USDC, 1e9 * USDC);
        profit = bound(profit, 0, 1e9 * USDC);
        (uint256 bondId, uint256 held) = _bond(vault, ALICE, amount);
        usdc.mint(address(vault), profit);
        shares = bound(shares, 1, held);
        vm.warp(block.timestamp + LOCKUP);

        uint256 gross = (amount + profit) * shares / held;
        uint256 highWaterPart = amount * shares / held;
        uint256 fee = gross > highWaterPart ? (gross - highWaterPart) * vault.feeBps() / 10_000 : 0;
        (uint256 quoted, uint256 quotedFee) = _quote(vault, bondId, shares);
        vm.prank(ALICE);
        (uint256 paid, uint256 charged) = vault.unbond(bondId, shares);

        assertEq(charged, fee, "fee");
        assertEq(paid, gross - fee, "paid");
        assertEq(paid, quoted, "paid as quoted");
        assertEq(charged, quotedFee, "fee as quoted");
        assertEq(usdc.balanceOf(ALICE), paid, "to the staker");
        assertEq(usdc.balanceOf(AGENT), fee, "to the manager");
        assertEq(usdc.balanceOf(address(vault)), amount + profit - gross, "the rest stays");
        (,, uint256 left, uint256 principal,) = vault.bonds(bondId);
        assertEq(left, held - shares, "shares left");
        assertEq(vault.totalShares(), held - shares, "totalShares");
        assertEq(principal, amount - amount * shares / held, "principal left");
    }

    /// Two stakers, the agent trades, the market ends in one of four states, both unbond in full:
    /// what they were paid plus the fees equals what went in plus the vault's realized profit and
    /// loss (measured on the market's side), to the unit, and nothing is left in the vault.
    function testFuzz_twoStakersPaidInPlusRealized(
        uint256 feeBps,
        uint256 a,
        uint256 b,
        uint256 spend,
        uint256 outcome,
        uint256 sellPart,
        uint256 ending
    ) public {
        AgentVault vault = _vault(feeBps);
        a = bound(a, USDC, 1e6 * USDC);
        b = bound(b, USDC, 1e6 * USDC);
        _bond(vault, ALICE, a);
        _bond(vault, BOB, b);
        uint256 marketSide = usdc.balanceOf(address(rain)) + usdc.balanceOf(TREASURY);

        outcome = bound(outcome, 0, 1);
        spend = bound(spend, USDC, a + b > 20_000 * USDC ? 20_000 * USDC : a + b);
        uint256 tokens = _vaultBuy(vault, "rain", outcome, spend);
        sellPart = bound(sellPart, 0, tokens);
        if (sellPart != 0) {
            vm.prank(AGENT);
            vault.sell(_id("rain"), outcome, sellPart, 0);
        }
        ending = bound(ending, 0, 3); // 0 trading, 1 resolved, 2 voided, 3 closed unresolved
        vm.startPrank(HOUSE);
        if (ending == 1 || ending == 3) rain.close();
        if (ending == 1) rain.resolve(uint256(keccak256(abi.encode(spend))) % 2);
        if (ending == 2) rain.void();
        vm.stopPrank();
        vm.warp(block.timestamp + LOCKUP);

        vm.prank(ALICE);
        (uint256 paidA, uint256 feeA) = vault.unbond(1, a);
        vm.prank(BOB);
        (uint256 paidB, uint256 feeB) = vault.unbond(2, b);

        int256 realized = int256(marketSide) - int256(usdc.balanceOf(address(rain)) + usdc.balanceOf(TREASURY));
        assertEq(paidA + paidB + feeA + feeB, uint256(int256(a + b) + realized), "paid = in + realized");
        assertEq(usdc.balanceOf(ALICE) + usdc.balanceOf(BOB), paidA + paidB, "stakers got what unbond returned");
        assertEq(usdc.balanceOf(AGENT), feeA + feeB, "the manager got the fees only");
        assertEq(usdc.balanceOf(address(vault)), 0, "no cash left");
        assertEq(vault.totalShares(), 0, "no shares left");
        if (ending != 1) {
            assertEq(rain.balanceOf(address(vault), 0) + rain.balanceOf(address(vault), 1), 0, "no tokens left");
        }
        if (ending == 3) {
            uint256 left = tokens - sellPart;
            assertEq(rain.balanceOf(ALICE, outcome), left * a / (a + b), "Alice's fraction in kind");
            assertEq(rain.balanceOf(BOB, outcome), left - left * a / (a + b), "Bob's the rest");
        }
    }
}
