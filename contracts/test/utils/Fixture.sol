// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "./Test.sol";
import {TestUSDC} from "../../src/TestUSDC.sol";
import {MarketFactory} from "../../src/MarketFactory.sol";
import {Market} from "../../src/Market.sol";

/// @dev A USDC, a factory whose operator and resolver are `house`, and helpers to open markets.
abstract contract Fixture is Test {
    address internal constant HOUSE = address(0xA11CE);
    address internal constant TREASURY = address(0x7EA5);
    uint256 internal constant USDC = 1e6;

    TestUSDC internal usdc;
    MarketFactory internal factory;

    function setUp() public virtual {
        usdc = new TestUSDC(address(this));
        usdc.grantRoles(address(this), usdc.MINTER_ROLE());
        factory = new MarketFactory(address(this), address(usdc), TREASURY);
        factory.grantRoles(HOUSE, factory.OPERATOR_ROLE() | factory.RESOLVER_ROLE());
        usdc.mint(HOUSE, 1e12 * USDC);
        vm.prank(HOUSE);
        usdc.approve(address(factory), type(uint256).max);
    }

    function _outcomes(uint256 n) internal pure returns (string[] memory names) {
        names = new string[](n);
        for (uint256 i; i < n; ++i) names[i] = string.concat("Outcome ", string(abi.encodePacked(bytes1(uint8(65 + i)))));
    }

    function _market(string memory slug, uint256 n, uint256 b, uint256 feeBps) internal returns (Market) {
        vm.prank(HOUSE);
        return Market(
            factory.createMarket(slug, slug, "Resolves by the test.", _outcomes(n), block.timestamp + 7 days, b, feeBps)
        );
    }

    function _fund(address who, uint256 amount, address spender) internal {
        usdc.mint(who, amount);
        vm.prank(who);
        usdc.approve(spender, type(uint256).max);
    }

    function _sum(uint256[] memory values) internal pure returns (uint256 total) {
        for (uint256 i; i < values.length; ++i) total += values[i];
    }
}
