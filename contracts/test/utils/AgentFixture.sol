// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Fixture} from "./Fixture.sol";
import {AgentRegistry} from "../../src/AgentRegistry.sol";
import {AgentVault} from "../../src/AgentVault.sol";
import {Market} from "../../src/Market.sol";

/// @dev The market fixture plus an agent registry whose operator is OPERATOR, and helpers to
/// register agents, bond, trade from a vault and read an unbond quote.
abstract contract AgentFixture is Fixture {
    address internal constant OPERATOR = address(0x0BE7);
    AgentRegistry internal registry;

    function setUp() public virtual override {
        super.setUp();
        registry = new AgentRegistry(address(this), address(usdc), address(factory));
        registry.grantRoles(OPERATOR, registry.OPERATOR_ROLE());
    }

    function _register(address manager, uint256 feeBps, uint256 lockup) internal returns (AgentVault) {
        vm.prank(manager);
        return AgentVault(registry.register(manager, "Agent", "A persona.", "A strategy.", false, feeBps, lockup));
    }

    function _bond(AgentVault vault, address staker, uint256 amount) internal returns (uint256 bondId, uint256 shares) {
        _fund(staker, amount, address(vault));
        vm.prank(staker);
        return vault.bond(amount);
    }

    /// @dev Bonds `amount` and returns what the bond paid: the staker is refunded the rest.
    function _bondPaying(AgentVault vault, address staker, uint256 amount)
        internal
        returns (uint256 bondId, uint256 shares, uint256 paid)
    {
        _fund(staker, amount, address(vault));
        uint256 before = usdc.balanceOf(staker);
        vm.prank(staker);
        (bondId, shares) = vault.bond(amount);
        paid = before - usdc.balanceOf(staker);
    }

    function _mulDivUp(uint256 x, uint256 y, uint256 d) internal pure returns (uint256) {
        return (x * y + d - 1) / d;
    }

    /// @dev USDC held by the markets and the treasury their fees go to.
    function _marketSide(Market[] memory markets) internal view returns (uint256 total) {
        total = usdc.balanceOf(TREASURY);
        for (uint256 m; m < markets.length; ++m) total += usdc.balanceOf(address(markets[m]));
    }

    function _id(string memory slug) internal pure returns (bytes32) {
        return keccak256(bytes(slug));
    }

    function _vaultBuy(AgentVault vault, string memory slug, uint256 outcome, uint256 amount)
        internal
        returns (uint256)
    {
        vm.prank(vault.manager());
        return vault.buy(_id(slug), outcome, amount, 0);
    }

    /// @dev quoteUnbond always reverts; this decodes its UnbondQuote (and passes any other revert on).
    function _quote(AgentVault vault, uint256 bondId, uint256 shares) internal returns (uint256 paid, uint256 fee) {
        try vault.quoteUnbond(bondId, shares) {
            revert("quoteUnbond returned");
        } catch (bytes memory reason) {
            if (reason.length != 68 || bytes4(reason) != AgentVault.UnbondQuote.selector) {
                assembly ("memory-safe") {
                    revert(add(reason, 32), mload(reason))
                }
            }
            assembly ("memory-safe") {
                paid := mload(add(reason, 36))
                fee := mload(add(reason, 68))
            }
        }
    }
}
