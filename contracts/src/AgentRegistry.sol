// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OwnableRoles} from "solady/auth/OwnableRoles.sol";
import {LibClone} from "solady/utils/LibClone.sol";
import {AgentVault} from "./AgentVault.sol";

/// @title AgentRegistry
/// @notice The roster of trading agents, on chain. An agent is its manager account (the agent's
/// smart account): registering deploys the agent's vault as a CREATE2 clone salted by that account,
/// so a vault's address follows from its agent alone and every account registers once. Agents
/// register themselves; only the operator registers house agents, for their accounts. Bond ids are
/// numbered here, across every vault, so that a bond id alone names a bond.
contract AgentRegistry is OwnableRoles {
    uint256 public constant OPERATOR_ROLE = _ROLE_0;
    uint256 public constant MAX_FEE_BPS = 2000;
    uint256 public constant MAX_LOCKUP_SECONDS = 365 days;
    uint256 public constant MAX_TEXT_BYTES = 1000;

    address public immutable usdc;
    address public immutable marketFactory;
    address public immutable implementation;

    struct Agent {
        address vault;
        bool house;
        bool active;
    }

    mapping(address manager => Agent) public agents;
    mapping(address vault => address manager) public managerOf;
    uint256 public bondCount;

    event AgentRegistered(
        address indexed manager,
        address indexed vault,
        string name,
        string persona,
        string strategy,
        bool house,
        uint256 feeBps,
        uint256 lockupSeconds
    );
    event AgentStatusChanged(address indexed manager, address indexed vault, bool active);

    error AlreadyRegistered();
    error NotRegistered();
    error NotAllowed();
    error InvalidName();
    error InvalidText();
    error InvalidFee();
    error InvalidLockup();
    error NotVault();

    constructor(address owner, address usdc_, address marketFactory_) {
        _initializeOwner(owner);
        usdc = usdc_;
        marketFactory = marketFactory_;
        implementation = address(new AgentVault());
    }

    /// @notice Registers `manager` as an agent and deploys its vault. Called by the manager itself
    /// (never a house agent), or by the operator for any account, house agents included.
    function register(
        address manager,
        string calldata name,
        string calldata persona,
        string calldata strategy,
        bool house,
        uint256 feeBps,
        uint256 lockupSeconds
    ) external returns (address vault) {
        bool byOperator = hasAnyRole(msg.sender, OPERATOR_ROLE);
        // A vault managed by address(0) would be unknown to nextBondId and could never take a bond.
        if (manager == address(0)) revert NotAllowed();
        if (msg.sender != manager && !byOperator) revert NotAllowed();
        if (house && !byOperator) revert NotAllowed();
        if (agents[manager].vault != address(0)) revert AlreadyRegistered();
        if (bytes(name).length == 0 || bytes(name).length > 100) revert InvalidName();
        if (bytes(persona).length > MAX_TEXT_BYTES || bytes(strategy).length > MAX_TEXT_BYTES) revert InvalidText();
        if (feeBps > MAX_FEE_BPS) revert InvalidFee();
        if (lockupSeconds > MAX_LOCKUP_SECONDS) revert InvalidLockup();

        vault = LibClone.cloneDeterministic(implementation, _salt(manager));
        agents[manager] = Agent({vault: vault, house: house, active: true});
        managerOf[vault] = manager;
        AgentVault(vault).initialize(manager, usdc, marketFactory, feeBps, lockupSeconds);
        emit AgentRegistered(manager, vault, name, persona, strategy, house, feeBps, lockupSeconds);
    }

    /// @notice Opens or closes the agent to new bonds; trading and unbonding go on either way.
    function setActive(address manager, bool active) external {
        if (msg.sender != manager && !hasAnyRole(msg.sender, OPERATOR_ROLE)) revert NotAllowed();
        Agent storage agent = agents[manager];
        if (agent.vault == address(0)) revert NotRegistered();
        agent.active = active;
        emit AgentStatusChanged(manager, agent.vault, active);
    }

    function isActive(address vault) external view returns (bool) {
        return agents[managerOf[vault]].active;
    }

    function vaultOf(address manager) external view returns (address) {
        return agents[manager].vault;
    }

    /// @notice Where `manager`'s vault is or will be deployed.
    function vaultAddress(address manager) external view returns (address) {
        return LibClone.predictDeterministicAddress(implementation, _salt(manager), address(this));
    }

    /// @notice The next bond id, for a vault of this registry.
    function nextBondId() external returns (uint256) {
        if (managerOf[msg.sender] == address(0)) revert NotVault();
        return ++bondCount;
    }

    function _salt(address manager) private pure returns (bytes32) {
        return bytes32(uint256(uint160(manager)));
    }
}
