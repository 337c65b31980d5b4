//! Uniswap v3/v4 math: TickMath, OracleLibrary quotes, TWAP mean ticks (A5), swap math.
