// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "./utils/Test.sol";
import {TestUSDC} from "../src/TestUSDC.sol";
import {Ownable} from "solady/auth/Ownable.sol";

contract TestUSDCTest is Test {
    TestUSDC internal usdc;
    uint256 internal constant PAYER_KEY = 0xA11CE;
    address internal payer;
    address internal constant PAYEE = address(0xB0B);

    function setUp() public {
        usdc = new TestUSDC(address(this));
        usdc.grantRoles(address(this), usdc.MINTER_ROLE());
        payer = vm.addr(PAYER_KEY);
        usdc.mint(payer, 100e6);
    }

    function test_metadataMatchesCircleUSDC() public view {
        assertEq(usdc.decimals(), 6, "decimals");
        assertTrue(keccak256(bytes(usdc.name())) == keccak256("USDC"), "name");
        assertTrue(keccak256(bytes(usdc.symbol())) == keccak256("USDC"), "symbol");
        bytes32 expected = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("USDC"),
                keccak256("2"),
                block.chainid,
                address(usdc)
            )
        );
        assertTrue(usdc.DOMAIN_SEPARATOR() == expected, "EIP-712 domain USDC/2");
    }

    function test_mint_onlyMinter() public {
        vm.prank(PAYEE);
        vm.expectRevert(Ownable.Unauthorized.selector);
        usdc.mint(PAYEE, 1);
    }

    function test_permit_setsAllowance() public {
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"),
                payer,
                PAYEE,
                5e6,
                0,
                block.timestamp + 1
            )
        );
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(PAYER_KEY, _digest(structHash));
        usdc.permit(payer, PAYEE, 5e6, block.timestamp + 1, v, r, s);
        assertEq(usdc.allowance(payer, PAYEE), 5e6, "allowance");
    }

    function test_transferWithAuthorization_movesFundsOnce() public {
        bytes32 nonce = keccak256("n1");
        bytes memory sig = _authorize(usdc.TRANSFER_WITH_AUTHORIZATION_TYPEHASH(), 7e6, 0, block.timestamp + 60, nonce);
        usdc.transferWithAuthorization(payer, PAYEE, 7e6, 0, block.timestamp + 60, nonce, sig);
        assertEq(usdc.balanceOf(PAYEE), 7e6, "paid");
        assertTrue(usdc.authorizationState(payer, nonce), "nonce used");
        vm.expectRevert(TestUSDC.AuthorizationAlreadyUsed.selector);
        usdc.transferWithAuthorization(payer, PAYEE, 7e6, 0, block.timestamp + 60, nonce, sig);
    }

    function test_transferWithAuthorization_vrsForm() public {
        bytes32 nonce = keccak256("vrs");
        bytes32 structHash = keccak256(
            abi.encode(usdc.TRANSFER_WITH_AUTHORIZATION_TYPEHASH(), payer, PAYEE, 1e6, 0, block.timestamp + 60, nonce)
        );
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(PAYER_KEY, _digest(structHash));
        usdc.transferWithAuthorization(payer, PAYEE, 1e6, 0, block.timestamp + 60, nonce, v, r, s);
        assertEq(usdc.balanceOf(PAYEE), 1e6, "paid");
    }

    function test_transferWithAuthorization_checksWindowAndSignature() public {
        vm.warp(1000);
        bytes32 typehash = usdc.TRANSFER_WITH_AUTHORIZATION_TYPEHASH();
        bytes memory early = _authorize(typehash, 1e6, 2000, 3000, bytes32(uint256(1)));
        vm.expectRevert(TestUSDC.AuthorizationNotYetValid.selector);
        usdc.transferWithAuthorization(payer, PAYEE, 1e6, 2000, 3000, bytes32(uint256(1)), early);
        bytes memory late = _authorize(typehash, 1e6, 0, 999, bytes32(uint256(2)));
        vm.expectRevert(TestUSDC.AuthorizationExpired.selector);
        usdc.transferWithAuthorization(payer, PAYEE, 1e6, 0, 999, bytes32(uint256(2)), late);
        bytes memory sig = _authorize(typehash, 1e6, 0, 2000, bytes32(uint256(3)));
        vm.expectRevert(TestUSDC.InvalidSignature.selector);
        usdc.transferWithAuthorization(payer, PAYEE, 2e6, 0, 2000, bytes32(uint256(3)), sig);
    }

    function test_receiveWithAuthorization_onlyPayee() public {
        bytes32 nonce = keccak256("r1");
        bytes memory sig = _authorize(usdc.RECEIVE_WITH_AUTHORIZATION_TYPEHASH(), 3e6, 0, block.timestamp + 60, nonce);
        vm.expectRevert(TestUSDC.CallerMustBePayee.selector);
        usdc.receiveWithAuthorization(payer, PAYEE, 3e6, 0, block.timestamp + 60, nonce, sig);
        vm.prank(PAYEE);
        usdc.receiveWithAuthorization(payer, PAYEE, 3e6, 0, block.timestamp + 60, nonce, sig);
        assertEq(usdc.balanceOf(PAYEE), 3e6, "received");
    }

    function test_cancelAuthorization_blocksLaterUse() public {
        bytes32 nonce = keccak256("c1");
        bytes32 cancelHash = keccak256(abi.encode(usdc.CANCEL_AUTHORIZATION_TYPEHASH(), payer, nonce));
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(PAYER_KEY, _digest(cancelHash));
        usdc.cancelAuthorization(payer, nonce, abi.encodePacked(r, s, v));
        bytes memory sig = _authorize(usdc.TRANSFER_WITH_AUTHORIZATION_TYPEHASH(), 1e6, 0, block.timestamp + 60, nonce);
        vm.expectRevert(TestUSDC.AuthorizationAlreadyUsed.selector);
        usdc.transferWithAuthorization(payer, PAYEE, 1e6, 0, block.timestamp + 60, nonce, sig);
    }

    function _authorize(bytes32 typehash, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce)
        internal
        returns (bytes memory)
    {
        bytes32 structHash = keccak256(abi.encode(typehash, payer, PAYEE, value, validAfter, validBefore, nonce));
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(PAYER_KEY, _digest(structHash));
        return abi.encodePacked(r, s, v);
    }

    function _digest(bytes32 structHash) internal view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", usdc.DOMAIN_SEPARATOR(), structHash));
    }
}
