// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @dev forge prints these calls to its console address (`-vv`); the npm forge-std has no
/// console the tests can import, so the gas tests carry the one signature they need.
library console {
    address private constant CONSOLE = 0x000000000000000000636F6e736F6c652e6c6f67;

    function log(string memory label, uint256 value) internal view {
        (bool ok,) = CONSOLE.staticcall(abi.encodeWithSignature("log(string,uint256)", label, value));
        ok;
    }
}
