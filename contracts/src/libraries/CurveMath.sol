// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";

/// @title CurveMath: the bonding curve's exact integer math (C19), bit for bit with eden-core `curve`.
/// @notice Constant product with a virtual quote reserve Φ that is never held: `(Φ + Q) × Y ≥ Φ × S`.
/// Graduation at `Q = G = 4Φ`, where `Y = S/5`.
///
/// Fees are in pips (hundredths of a bip, `FEE_DENOMINATOR_PIPS = 10^6` = 100 %); the trading fee τ is
/// configured in bps (`τ_pips = 100 × τ_bps`). Anti-snipe tax `τ_snipe(t) = 0.99 × max(0, 1 − t/15)`,
/// exact in pips: `66,000 × (15 − t)` for whole seconds `t < 15`, else 0. A buy pays
/// `f = max(τ, τ_snipe(t))` (never the sum); a sell pays τ.
///
/// Buy `x`: `fee = ceil(x·f / 10^6)`, `net = x − fee`,
/// `tokensOut = Y − ceil(Φ·S / (Φ + Q + net))`.
/// Clamp when `net ≥ G − Q`: `used = ceil((G − Q) × 10^6 / (10^6 − f))`, `fee = used − (G − Q)`,
/// `tokensOut = Y − ceil(Φ·S / (Φ + G))`, `refund = x − used`; Q lands exactly on G.
/// Sell `y ≤ S − Y`: `gross = (Φ + Q) − ceil(Φ·S / (Y + y))`, `fee = ceil(gross·τ / 10^6)`, `out = gross − fee`.
/// Rounding always favours the curve (tokens/quote out down, fees and the reserve left up).
library CurveMath {
    uint256 internal constant FEE_DENOMINATOR_PIPS = 1_000_000;
    uint256 internal constant PIPS_PER_BPS = 100;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant SNIPE_WINDOW_SECONDS = 15;
    uint256 internal constant SNIPE_MAX_PIPS = 990_000;
    uint256 internal constant SNIPE_DECAY_PIPS_PER_SECOND = 66_000; // SNIPE_MAX_PIPS / SNIPE_WINDOW_SECONDS
    uint256 internal constant GRADUATION_MULTIPLE = 4; // G = 4Φ
    uint256 internal constant MIN_SUPPLY_PER_VIRTUAL_QUOTE = 25; // decided in core: S ≥ 25Φ

    error ZeroQuoteIn();
    error ZeroTokensIn();
    error ExceedsSold(uint256 tokensIn, uint256 sold);

    struct Buy {
        uint256 tokensOut;
        uint256 fee;
        uint256 quoteUsed; // fee included
        uint256 refund;
        bool graduates;
    }

    /// @notice τ_snipe(t) in pips.
    function snipeTaxPips(uint256 secondsSinceLaunch) internal pure returns (uint256) {
        if (secondsSinceLaunch >= SNIPE_WINDOW_SECONDS) return 0;
        return SNIPE_DECAY_PIPS_PER_SECOND * (SNIPE_WINDOW_SECONDS - secondsSinceLaunch);
    }

    /// @notice f = max(τ, τ_snipe(t)) in pips.
    function buyFeeRatePips(uint256 feeBps, uint256 secondsSinceLaunch) internal pure returns (uint256) {
        uint256 tau = feeBps * PIPS_PER_BPS;
        uint256 snipe = snipeTaxPips(secondsSinceLaunch);
        return tau > snipe ? tau : snipe;
    }

    /// @notice ceil(Φ·S / (Φ + G)) = ceil(S/5): the token reserve at graduation.
    function graduationReserve(uint256 phi, uint256 supply) internal pure returns (uint256) {
        return FullMath.mulDivRoundingUp(phi, supply, phi + GRADUATION_MULTIPLE * phi);
    }

    /// @notice Quotes a buy of `quoteIn` at fee rate `feePips` on a curve (Φ, S, Q, Y).
    function quoteBuy(uint256 phi, uint256 supply, uint256 q, uint256 y, uint256 quoteIn, uint256 feePips)
        internal
        pure
        returns (Buy memory b)
    {
        if (quoteIn == 0) revert ZeroQuoteIn();
        b.fee = FullMath.mulDivRoundingUp(quoteIn, feePips, FEE_DENOMINATOR_PIPS);
        uint256 net = quoteIn - b.fee;
        uint256 room = GRADUATION_MULTIPLE * phi - q;
        if (net >= room) {
            uint256 used = FullMath.mulDivRoundingUp(room, FEE_DENOMINATOR_PIPS, FEE_DENOMINATOR_PIPS - feePips);
            b.tokensOut = y - graduationReserve(phi, supply);
            b.fee = used - room;
            b.quoteUsed = used;
            b.refund = quoteIn - used;
            b.graduates = true;
        } else {
            b.tokensOut = y - FullMath.mulDivRoundingUp(phi, supply, phi + q + net);
            b.quoteUsed = quoteIn;
        }
    }

    /// @notice Quotes a sell of `tokensIn` at the trading fee `feeBps`; returns (quoteOut, fee). Q falls by quoteOut + fee.
    function quoteSell(uint256 phi, uint256 supply, uint256 q, uint256 y, uint256 tokensIn, uint256 feeBps)
        internal
        pure
        returns (uint256 quoteOut, uint256 fee)
    {
        if (tokensIn == 0) revert ZeroTokensIn();
        uint256 sold = supply - y;
        if (tokensIn > sold) revert ExceedsSold(tokensIn, sold);
        uint256 gross = (phi + q) - FullMath.mulDivRoundingUp(phi, supply, y + tokensIn);
        fee = FullMath.mulDivRoundingUp(gross, feeBps * PIPS_PER_BPS, FEE_DENOMINATOR_PIPS);
        quoteOut = gross - fee;
    }
}
