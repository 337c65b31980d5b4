//! Scorer rewards (C11–C14): drip, positions, capped denominator, accumulator.
