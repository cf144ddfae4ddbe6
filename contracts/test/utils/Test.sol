// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @dev The slice of forge's cheatcodes these tests use. The forge-std on npm is an old build
/// without invariant helpers, so the tests carry this small base instead.
interface Vm {
    function warp(uint256) external;
    function prank(address) external;
    function startPrank(address) external;
    function stopPrank() external;
    function expectRevert(bytes4) external;
    function expectRevert(bytes calldata) external;
    function expectRevert() external;
    function expectEmit(bool, bool, bool, bool) external;
    function addr(uint256) external returns (address);
    function sign(uint256, bytes32) external returns (uint8, bytes32, bytes32);
    function assume(bool) external;
    function label(address, string calldata) external;
    function deal(address, uint256) external;
    function snapshotState() external returns (uint256);
    function revertToState(uint256) external returns (bool);
}

abstract contract Test {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    address[] private _targetContracts;

    /// @dev Read by forge's invariant runner to pick which contracts it calls.
    function targetContracts() public view returns (address[] memory) {
        return _targetContracts;
    }

    function targetContract(address target) internal {
        _targetContracts.push(target);
    }

    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        require(min <= max, "bound: min > max");
        if (x >= min && x <= max) return x;
        return min + (x % (max - min + 1));
    }

    function assertTrue(bool condition, string memory message) internal pure {
        require(condition, message);
    }

    function assertEq(uint256 a, uint256 b, string memory message) internal pure {
        if (a != b) revert(string.concat(message, ": ", _str(a), " != ", _str(b)));
    }

    function assertEq(address a, address b, string memory message) internal pure {
        require(a == b, message);
    }

    function assertLe(uint256 a, uint256 b, string memory message) internal pure {
        if (a > b) revert(string.concat(message, ": ", _str(a), " > ", _str(b)));
    }

    function assertGe(uint256 a, uint256 b, string memory message) internal pure {
        if (a < b) revert(string.concat(message, ": ", _str(a), " < ", _str(b)));
    }

    function assertApproxEqAbs(uint256 a, uint256 b, uint256 maxDelta, string memory message) internal pure {
        uint256 delta = a > b ? a - b : b - a;
        if (delta > maxDelta) revert(string.concat(message, ": ", _str(a), " !~ ", _str(b)));
    }

    function _str(uint256 value) private pure returns (string memory) {
        if (value == 0) return "0";
        bytes memory digits;
        while (value != 0) {
            digits = abi.encodePacked(bytes1(uint8(48 + (value % 10))), digits);
            value /= 10;
        }
        return string(digits);
    }
}
