//! Curve fees (C19): the trading fee `τ` and the opening anti-snipe tax.
//!
//! `τ_snipe(t) = 0.99 × max(0, 1 − t/15)` for `t` whole seconds after launch; a buy pays
//! `f = max(τ, τ_snipe(t))` (C19 decided: the larger of the two, never their sum); a sell pays
//! `τ`. Rates are in hundredths of a bip ("pips", [`FEE_DENOMINATOR_PIPS`] = 10^6 = 100 %),
//! where the tax is exact for every integer `t`: `τ_snipe(t) = 66,000 × (15 − t)` pips
//! (990,000 at `t = 0`, 66,000 at `t = 14`, 0 from `t = 15`). `τ` in bps is `100 × τ_bps` pips.
//! Fee amounts round up (`fee = ceil(x·f)`), in the curve's favour.

/// 100 % in pips (hundredths of a bip), the fee denominator.
pub const FEE_DENOMINATOR_PIPS: u32 = 1_000_000;
/// Pips per bp.
pub const PIPS_PER_BPS: u32 = 100;
/// The anti-snipe window: the tax reaches 0 at `t = 15 s`.
pub const SNIPE_WINDOW_SECONDS: u64 = 15;
/// The anti-snipe tax at `t = 0`: 99 % in pips.
pub const SNIPE_MAX_PIPS: u32 = 990_000;
/// The tax falls by `SNIPE_MAX_PIPS / SNIPE_WINDOW_SECONDS` = 66,000 pips (6.6 %) per second.
pub const SNIPE_DECAY_PIPS_PER_SECOND: u32 = SNIPE_MAX_PIPS / SNIPE_WINDOW_SECONDS as u32;

/// `τ_snipe(t)` in pips: `0.99 × max(0, 1 − t/15)`, exact.
pub fn snipe_tax_pips(seconds_since_launch: u64) -> u32 {
    if seconds_since_launch >= SNIPE_WINDOW_SECONDS {
        return 0;
    }
    // t < 15: 66,000 × (15 − t) ≤ 990,000.
    SNIPE_DECAY_PIPS_PER_SECOND * (SNIPE_WINDOW_SECONDS - seconds_since_launch) as u32
}

/// The buy fee rate `f = max(τ, τ_snipe(t))` in pips.
pub fn buy_fee_rate_pips(fee_bps: u32, seconds_since_launch: u64) -> u32 {
    sell_fee_rate_pips(fee_bps).max(snipe_tax_pips(seconds_since_launch))
}

/// The sell fee rate `τ` in pips.
pub fn sell_fee_rate_pips(fee_bps: u32) -> u32 {
    fee_bps.saturating_mul(PIPS_PER_BPS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snipe_tax_is_exact_every_second() {
        assert_eq!(SNIPE_DECAY_PIPS_PER_SECOND, 66_000);
        assert_eq!(snipe_tax_pips(0), 990_000); // 99 %
        assert_eq!(snipe_tax_pips(5), 660_000); // 0.99 × 2/3 = 66 %
        assert_eq!(snipe_tax_pips(10), 330_000); // 33 %
        assert_eq!(snipe_tax_pips(14), 66_000); // 6.6 %
        assert_eq!(snipe_tax_pips(15), 0);
        assert_eq!(snipe_tax_pips(u64::MAX), 0);
        for t in 0..15u64 {
            // 0.99 × (1 − t/15) × 10^6 = 990,000 × (15 − t) / 15, exactly divisible.
            assert_eq!(990_000 * (15 - t) % 15, 0);
            assert_eq!(snipe_tax_pips(t) as u64, 990_000 * (15 - t) / 15);
        }
    }

    #[test]
    fn larger_of_fee_and_tax_never_the_sum() {
        assert_eq!(buy_fee_rate_pips(100, 0), 990_000);
        assert_eq!(buy_fee_rate_pips(100, 14), 66_000);
        assert_eq!(buy_fee_rate_pips(100, 15), 10_000);
        assert_eq!(buy_fee_rate_pips(800, 14), 80_000);
        assert_eq!(sell_fee_rate_pips(100), 10_000);
    }
}
