// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OwnableRoles} from "solady/auth/OwnableRoles.sol";
import {LibClone} from "solady/utils/LibClone.sol";
import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {FixedPointMathLib as M} from "solady/utils/FixedPointMathLib.sol";
import {Market} from "./Market.sol";
import {LMSR} from "./LMSR.sol";

/// @title MarketFactory
/// @notice Deploys markets as CREATE2 clones salted by keccak256(slug), so a market's address
/// follows from its slug alone, and funds each with its LMSR subsidy b·ln n taken from the
/// operator. MarketCreated carries everything needed to rebuild the market list from the chain.
contract MarketFactory is OwnableRoles {
    using SafeTransferLib for address;

    uint256 public constant OPERATOR_ROLE = _ROLE_0;
    uint256 public constant RESOLVER_ROLE = _ROLE_1;
    /// @dev Below one USDC of liquidity, a single cent moves prices wildly.
    uint256 public constant MIN_B = 1e6;

    address public immutable usdc;
    address public immutable implementation;
    address public treasury;
    mapping(bytes32 id => address market) public markets;

    event MarketCreated(
        bytes32 indexed id,
        address indexed market,
        string slug,
        string title,
        string description,
        string[] outcomes,
        uint256 closesAt,
        uint256 b,
        uint256 feeBps,
        uint256 subsidy
    );
    event TreasuryChanged(address treasury);

    error InvalidSlug();
    error InvalidOutcomes();
    error InvalidLiquidity();
    error InvalidFee();
    error InvalidClosesAt();
    error MarketExists();

    constructor(address owner, address usdc_, address treasury_) {
        _initializeOwner(owner);
        usdc = usdc_;
        treasury = treasury_;
        implementation = address(new Market());
    }

    function createMarket(
        string calldata slug,
        string calldata title,
        string calldata description,
        string[] calldata outcomes,
        uint256 closesAt,
        uint256 b,
        uint256 feeBps
    ) external onlyRoles(OPERATOR_ROLE) returns (address market) {
        if (bytes(slug).length == 0) revert InvalidSlug();
        if (outcomes.length < 2 || outcomes.length > 8) revert InvalidOutcomes();
        if (b < MIN_B || b > LMSR.MAX_B) revert InvalidLiquidity();
        if (feeBps > 1000) revert InvalidFee();
        if (closesAt <= block.timestamp || closesAt > type(uint64).max) revert InvalidClosesAt();
        bytes32 id = keccak256(bytes(slug));
        if (markets[id] != address(0)) revert MarketExists();

        market = LibClone.cloneDeterministic(implementation, id);
        markets[id] = market;
        Market(market).initialize(usdc, outcomes.length, b, feeBps, closesAt);
        uint256 subsidy = subsidyFor(b, outcomes.length);
        usdc.safeTransferFrom(msg.sender, market, subsidy);
        emit MarketCreated(id, market, slug, title, description, outcomes, closesAt, b, feeBps, subsidy);
    }

    /// @notice The house's worst-case loss b·ln n, rounded up: what a market needs at creation.
    function subsidyFor(uint256 b, uint256 outcomeCount) public pure returns (uint256) {
        uint256 lnN = uint256(M.lnWad(int256(outcomeCount * 1e18)));
        return M.fullMulDivUp(b, lnN, 1e18) + 1;
    }

    function marketAddress(string calldata slug) external view returns (address) {
        return LibClone.predictDeterministicAddress(implementation, keccak256(bytes(slug)), address(this));
    }

    function isResolver(address account) external view returns (bool) {
        return hasAnyRole(account, RESOLVER_ROLE);
    }

    function setTreasury(address treasury_) external onlyOwner {
        treasury = treasury_;
        emit TreasuryChanged(treasury_);
    }
}
