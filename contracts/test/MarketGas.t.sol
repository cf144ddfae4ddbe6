// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Fixture} from "./utils/Fixture.sol";
import {Market} from "../src/Market.sol";

/// @dev Gas is deterministic, so the design's budget is checked here, not in a benchmark.
contract MarketGasTest is Fixture {
    function test_gas_firstBuyOnTwoOutcomesWithinBudget() public {
        Market market = _market("gas", 2, 1_000 * 1e6, 50);
        address buyer = address(0xCAFE);
        _fund(buyer, 1_000 * USDC, address(market));
        vm.prank(buyer);
        uint256 before = gasleft();
        market.buy(0, 10 * USDC, 0);
        uint256 used = before - gasleft();
        // The coldest path: new holder, first tokens of the outcome, first fee to the treasury.
        // `npm test` runs forge with --gas-report, which isolates every call as its own
        // transaction, so `used` is then the whole transaction's gas, intrinsic cost included.
        assertLe(used, 150_000, "buy over budget");
    }
}
