// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AgentFixture} from "./utils/AgentFixture.sol";
import {AgentVaultHandler} from "./utils/AgentVaultHandler.sol";
import {AgentVault} from "../src/AgentVault.sol";
import {Market} from "../src/Market.sol";

/// @dev The vault's invariants (its NatSpec) across bonds, unbonds after lockup, the agent's buys,
/// sells and claims in three markets, an outsider's trades and every market ending (runs and depth:
/// foundry.toml [invariant]; fail_on_revert, so an unbond that reverts fails the run).
contract AgentVaultInvariantTest is AgentFixture {
    address internal constant AGENT = address(0xA6E7);
    address internal constant OUTSIDER = address(0x0575);
    AgentVault internal vault;
    AgentVaultHandler internal handler;

    function setUp() public override {
        super.setUp();
        vault = _register(AGENT, 1500, 1 hours);
        AgentVaultHandler.Setup memory s;
        s.registry = registry;
        s.vault = vault;
        s.usdc = usdc;
        s.resolver = HOUSE;
        s.treasury = TREASURY;
        s.outsider = OUTSIDER;
        s.markets = new Market[](3);
        s.ids = new bytes32[](3);
        for (uint256 m; m < 3; ++m) {
            string memory slug = string.concat("inv-", string(abi.encodePacked(bytes1(uint8(48 + m)))));
            s.markets[m] = _market(slug, 2 + m, (500 + 250 * m) * USDC, 100 * m);
            s.ids[m] = _id(slug);
            _fund(OUTSIDER, 1e9 * USDC, address(s.markets[m]));
        }
        s.actors = new address[](3);
        for (uint256 i; i < 3; ++i) {
            s.actors[i] = address(uint160(0x5000 + i));
            _fund(s.actors[i], 1e9 * USDC, address(vault));
        }
        handler = new AgentVaultHandler(s);
        targetContract(address(handler));
    }

    /// The bonds' shares sum to totalShares.
    function invariant_sharesSumToTotal() public view {
        uint256 sum;
        for (uint256 i; i < handler.bondCount(); ++i) {
            (,, uint256 shares,,) = vault.bonds(handler.bondIds(i));
            sum += shares;
        }
        assertEq(sum, vault.totalShares(), "shares do not sum to totalShares");
        if (sum == 0) {
            assertEq(usdc.balanceOf(address(vault)), 0, "cash left without shares");
            assertEq(vault.openMarkets().length, 0, "positions left without shares");
        }
    }

    /// Every unbond paid exactly its fraction of the cash after claims plus what its sales fetched,
    /// its fraction of unsettled closed markets in kind, and what quoteUnbond said beforehand.
    function invariant_unbondsPayTheirFraction() public view {
        assertEq(handler.payMismatches(), 0, "an unbond paid other than its fraction");
        assertEq(handler.quoteMismatches(), 0, "an unbond paid other than its quote");
        assertEq(handler.inKindMismatches(), 0, "an unbond gave other tokens in kind");
    }

    /// Every bond paid at most its amount and was refunded exactly the rest (a first bond: shares =
    /// amount), paid its fraction of the cash and closed marks and bought its fraction of every
    /// trading position; no share held before it held less cash, fewer tokens or less fixed value after.
    function invariant_bondsBuyInWithoutDiluting() public view {
        assertEq(handler.bondMismatches(), 0, "a bond paid or bought other than its fraction");
        assertEq(handler.dilutions(), 0, "a bond diluted the earlier shares");
    }

    /// The vault's USDC went only to markets, to stakers and to the manager as fees: its balance is
    /// what bonds paid (their amounts less the refunds), less what stakers and the manager got, plus
    /// its net flow from markets (measured on the markets' side: the agent's trades and claims, the
    /// bonds' purchases, the unbonds' sales); the stakers and the manager hold exactly that.
    function invariant_usdcMovesOnlyToMarketsStakersAndFees() public view {
        int256 expected =
            int256(handler.bondedIn()) - int256(handler.paidOut()) - int256(handler.feesOut()) + handler.fromMarkets();
        assertEq(usdc.balanceOf(address(vault)), uint256(expected), "vault cash differs from its flows");
        assertEq(usdc.balanceOf(AGENT), handler.feesOut(), "the manager got more than fees");
        for (uint256 i; i < handler.actorCount(); ++i) {
            address actor = handler.actors(i);
            assertEq(usdc.balanceOf(actor), handler.actorFunding(actor), "a staker's USDC differs from the record");
        }
    }

    /// A market the vault stopped tracking holds nothing of value for it: no token of an unsettled
    /// market, no winning token, nothing to claim after a void. NAV and unbonds see everything.
    function invariant_valuablePositionsAreTracked() public view {
        assertLe(vault.openMarkets().length, vault.MAX_POSITIONS(), "too many positions");
        for (uint256 m; m < handler.marketCount(); ++m) {
            Market market = handler.markets(m);
            if (vault.isOpen(address(market))) continue;
            Market.Status status = market.status();
            uint256 n = market.outcomeCount();
            for (uint256 i; i < n; ++i) {
                bool worthless = status == Market.Status.Resolved && i != market.resolvedOutcome();
                if (!worthless) assertEq(market.balanceOf(address(vault), i), 0, "untracked tokens of value");
            }
        }
    }
}
