// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AgentFixture} from "./utils/AgentFixture.sol";
import {AgentRegistry} from "../src/AgentRegistry.sol";
import {AgentVault} from "../src/AgentVault.sol";

contract AgentRegistryTest is AgentFixture {
    address internal constant AGENT = address(0xA6E7);
    address internal constant OTHER = address(0x07E4);

    // ------------------------------------------------------------ register

    function test_register_byManagerDeploysVaultAtPredictedAddress() public {
        address predicted = registry.vaultAddress(AGENT);
        vm.expectEmit(true, true, false, true);
        emit AgentRegistry.AgentRegistered(AGENT, predicted, "Agent", "A persona.", "A strategy.", false, 1500, 3 days);
        AgentVault vault = _register(AGENT, 1500, 3 days);

        assertEq(address(vault), predicted, "vault at the predicted address");
        assertTrue(address(vault).code.length != 0, "vault deployed");
        (address stored, bool house, bool active) = registry.agents(AGENT);
        assertEq(stored, address(vault), "agent's vault");
        assertTrue(!house && active, "self-registered agents are not house agents and start active");
        assertEq(registry.vaultOf(AGENT), address(vault), "vaultOf");
        assertEq(registry.managerOf(address(vault)), AGENT, "managerOf");
        assertTrue(registry.isActive(address(vault)), "isActive");

        assertEq(vault.registry(), address(registry), "vault's registry");
        assertEq(vault.manager(), AGENT, "vault's manager");
        assertEq(vault.usdc(), address(usdc), "vault's USDC");
        assertEq(vault.marketFactory(), address(factory), "vault's factory");
        assertEq(vault.feeBps(), 1500, "vault's fee");
        assertEq(vault.lockupSeconds(), 3 days, "vault's lockup");
        assertEq(vault.totalShares(), 0, "no shares yet");
    }

    function test_register_houseAgentByOperator() public {
        vm.expectEmit(true, true, false, true);
        emit AgentRegistry.AgentRegistered(AGENT, registry.vaultAddress(AGENT), "House", "", "", true, 0, 0);
        vm.prank(OPERATOR);
        address vault = registry.register(AGENT, "House", "", "", true, 0, 0);
        (, bool house, bool active) = registry.agents(AGENT);
        assertTrue(house && active, "house agent, active");
        assertEq(AgentVault(vault).manager(), AGENT, "the agent's account manages the vault, not the operator");
    }

    function test_register_operatorMayRegisterOrdinaryAgents() public {
        vm.prank(OPERATOR);
        registry.register(AGENT, "Agent", "", "", false, 2000, 365 days);
        (address vault, bool house,) = registry.agents(AGENT);
        assertTrue(vault != address(0) && !house, "registered, not house");
        assertEq(AgentVault(vault).feeBps(), 2000, "the largest fee is allowed");
        assertEq(AgentVault(vault).lockupSeconds(), 365 days, "the longest lockup is allowed");
    }

    function test_register_refusesSomeoneElse() public {
        vm.prank(OTHER);
        vm.expectRevert(AgentRegistry.NotAllowed.selector);
        registry.register(AGENT, "Agent", "", "", false, 0, 0);
    }

    function test_register_refusesHouseByNonOperator() public {
        vm.prank(AGENT);
        vm.expectRevert(AgentRegistry.NotAllowed.selector);
        registry.register(AGENT, "Agent", "", "", true, 0, 0);
    }

    function test_register_refusesTwice() public {
        _register(AGENT, 0, 0);
        vm.prank(AGENT);
        vm.expectRevert(AgentRegistry.AlreadyRegistered.selector);
        registry.register(AGENT, "Again", "", "", false, 0, 0);
        vm.prank(OPERATOR);
        vm.expectRevert(AgentRegistry.AlreadyRegistered.selector);
        registry.register(AGENT, "Again", "", "", true, 0, 0);
    }

    function test_register_refusesZeroManager() public {
        vm.prank(OPERATOR);
        vm.expectRevert(AgentRegistry.NotAllowed.selector);
        registry.register(address(0), "Nobody", "", "", true, 0, 0);
    }

    function test_register_validatesParameters() public {
        vm.startPrank(AGENT);
        vm.expectRevert(AgentRegistry.InvalidFee.selector);
        registry.register(AGENT, "Agent", "", "", false, 2001, 0);
        vm.expectRevert(AgentRegistry.InvalidLockup.selector);
        registry.register(AGENT, "Agent", "", "", false, 0, 365 days + 1);
        vm.expectRevert(AgentRegistry.InvalidName.selector);
        registry.register(AGENT, "", "", "", false, 0, 0);
        vm.expectRevert(AgentRegistry.InvalidName.selector);
        registry.register(AGENT, string(new bytes(101)), "", "", false, 0, 0);
        vm.expectRevert(AgentRegistry.InvalidText.selector);
        registry.register(AGENT, "Agent", string(new bytes(1001)), "", false, 0, 0);
        vm.expectRevert(AgentRegistry.InvalidText.selector);
        registry.register(AGENT, "Agent", "", string(new bytes(1001)), false, 0, 0);
        // The limits themselves are allowed.
        registry.register(AGENT, string(new bytes(100)), string(new bytes(1000)), string(new bytes(1000)), false, 0, 0);
        vm.stopPrank();
    }

    function test_vaultAddress_distinctPerManagerAndStable() public {
        address a = registry.vaultAddress(AGENT);
        address b = registry.vaultAddress(OTHER);
        assertTrue(a != b, "one vault per manager");
        _register(OTHER, 0, 0);
        assertEq(registry.vaultAddress(AGENT), a, "unchanged by other registrations");
        assertEq(registry.vaultOf(OTHER), b, "other's vault where predicted");
        assertEq(registry.vaultOf(AGENT), address(0), "no vault before registering");
    }

    // ------------------------------------------------------------ setActive

    function test_setActive_byManagerAndOperator() public {
        AgentVault vault = _register(AGENT, 0, 0);
        vm.expectEmit(true, true, false, true);
        emit AgentRegistry.AgentStatusChanged(AGENT, address(vault), false);
        vm.prank(AGENT);
        registry.setActive(AGENT, false);
        assertTrue(!registry.isActive(address(vault)), "deactivated by the agent");

        vm.expectEmit(true, true, false, true);
        emit AgentRegistry.AgentStatusChanged(AGENT, address(vault), true);
        vm.prank(OPERATOR);
        registry.setActive(AGENT, true);
        assertTrue(registry.isActive(address(vault)), "reactivated by the operator");
    }

    function test_setActive_refusals() public {
        vm.prank(OPERATOR);
        vm.expectRevert(AgentRegistry.NotRegistered.selector);
        registry.setActive(AGENT, false);
        _register(AGENT, 0, 0);
        vm.prank(OTHER);
        vm.expectRevert(AgentRegistry.NotAllowed.selector);
        registry.setActive(AGENT, false);
    }

    // ------------------------------------------------------------ bond ids and initialization

    function test_nextBondId_onlyForVaults() public {
        vm.prank(OTHER);
        vm.expectRevert(AgentRegistry.NotVault.selector);
        registry.nextBondId();
    }

    function test_bondIds_areGlobalAcrossVaults() public {
        AgentVault first = _register(AGENT, 0, 0);
        AgentVault second = _register(OTHER, 0, 0);
        (uint256 one,) = _bond(first, address(0x51), 10 * USDC);
        (uint256 two,) = _bond(second, address(0x52), 10 * USDC);
        (uint256 three,) = _bond(first, address(0x53), 10 * USDC);
        assertEq(one, 1, "first id");
        assertEq(two, 2, "ids continue in another vault");
        assertEq(three, 3, "and back");
        assertEq(registry.bondCount(), 3, "bondCount");
    }

    function test_initialize_onlyOnce() public {
        AgentVault vault = _register(AGENT, 0, 0);
        vm.expectRevert(AgentVault.AlreadyInitialized.selector);
        vault.initialize(OTHER, address(usdc), address(factory), 0, 0);
        AgentVault implementation = AgentVault(registry.implementation());
        vm.expectRevert(AgentVault.AlreadyInitialized.selector);
        implementation.initialize(OTHER, address(usdc), address(factory), 0, 0);
    }
}
