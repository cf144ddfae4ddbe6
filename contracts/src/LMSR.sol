// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FixedPointMathLib as M} from "solady/utils/FixedPointMathLib.sol";

/// @title LMSR
/// @notice Hanson's logarithmic market scoring rule over outcome quantities `q` and liquidity `b`,
/// both in 6-decimal units (1e6 = 1 USDC = 1 token): cost C(q) = b·ln Σ exp(q_i/b), prices are its
/// softmax. Every exponential is taken of (q_i − max q)/b ≤ 0, so the sum S lies in [1, n] and its
/// logarithm is exact to a few wei: that keeps C accurate to far below one unit for b ≤ MAX_B.
/// Where a result is rounded, the caller picks the direction that favours the market.
library LMSR {
    uint256 internal constant WAD = 1e18;
    /// @dev Bounds b so that a few wei of error in ln S stay below one 6-decimal unit of cost.
    uint256 internal constant MAX_B = 1e15;

    /// @dev exp((q_i − max q)/b) for every outcome, in WAD, and their sum.
    function terms(uint256[] memory q, uint256 b) internal pure returns (uint256[] memory e, uint256 sum) {
        uint256 n = q.length;
        uint256 top = q[0];
        for (uint256 i = 1; i < n; ++i) if (q[i] > top) top = q[i];
        e = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            int256 x = -int256(M.fullMulDiv(top - q[i], WAD, b));
            // expWad gives 0 below e^-41.4; the true term is positive, and one wei keeps it so.
            e[i] = uint256(M.expWad(x));
            if (e[i] == 0) e[i] = 1;
            sum += e[i];
        }
    }

    /// @notice C(q), rounded up (`roundUp`) or down, with one unit of slack for the exp/ln error.
    function cost(uint256[] memory q, uint256 b, bool roundUp) internal pure returns (uint256) {
        (, uint256 sum) = terms(q, b);
        return costFromSum(q, b, sum, roundUp);
    }

    function costFromSum(uint256[] memory q, uint256 b, uint256 sum, bool roundUp) internal pure returns (uint256) {
        uint256 top = q[0];
        for (uint256 i = 1; i < q.length; ++i) if (q[i] > top) top = q[i];
        // sum ≥ 1e18 because the largest term is exp(0), so ln(sum) ≥ 0.
        uint256 lnSum = uint256(M.lnWad(int256(sum)));
        if (roundUp) return top + M.fullMulDivUp(b, lnSum, WAD) + 1;
        uint256 down = M.fullMulDiv(b, lnSum, WAD);
        return top + (down == 0 ? 0 : down - 1);
    }

    /// @notice Prices in WAD, kept inside [1, 1e18 − 1] so that no outcome is ever quoted as free or
    /// certain; they sum to 1e18 within n wei.
    function prices(uint256[] memory q, uint256 b) internal pure returns (uint256[] memory p) {
        (uint256[] memory e, uint256 sum) = terms(q, b);
        p = pricesFromTerms(e, sum);
    }

    function pricesFromTerms(uint256[] memory e, uint256 sum) internal pure returns (uint256[] memory p) {
        p = new uint256[](e.length);
        for (uint256 i; i < e.length; ++i) {
            p[i] = M.min(M.max(M.fullMulDivUp(e[i], WAD, sum), 1), WAD - 1);
        }
    }

    /// @dev USDC units held back from a buy's spend to absorb the one-unit slack on each side of
    /// the exact cost check.
    uint256 internal constant SPEND_SLACK = 3;

    /// @notice Tokens of outcome k that `spend` buys, from the closed form
    /// Δ = b·ln(1 + (e^{spend/b} − 1)·S/E_k), computed for spend minus SPEND_SLACK and shaded down by
    /// one part in 1e8, so that the exact cost check that follows holds for every price above about
    /// 1e-8. Returns 0 for a spend too small to buy anything.
    function tokensForSpend(uint256[] memory q, uint256 b, uint256 k, uint256 spend) internal pure returns (uint256) {
        if (spend <= SPEND_SLACK) return 0;
        spend -= SPEND_SLACK;
        (uint256[] memory e, uint256 sum) = terms(q, b);
        uint256 growth = uint256(M.expWad(int256(M.fullMulDiv(spend, WAD, b)))) - WAD;
        uint256 ek = e[k] == 0 ? 1 : e[k];
        uint256 inner = WAD + M.fullMulDiv(growth, sum, ek);
        uint256 tokens = M.fullMulDiv(b, uint256(M.lnWad(int256(inner))), WAD);
        return tokens - tokens / 1e8;
    }
}
