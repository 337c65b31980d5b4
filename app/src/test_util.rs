//! Fixtures shared by the app's tests: eden-core's own (`eden_core::fixtures`), so no page imports
//! another page's tests and no fixture is written twice.

pub(crate) use eden_core::fixtures::agents_projects as projects;

/// A launch record as the launchpad holds it right after `launch`: an ETH pair, nothing sold yet.
pub(crate) fn fresh_launch(
    quote: alloy_primitives::Address,
    launch_time: u64,
) -> crate::chain::abi::ILaunchpad::Launch {
    use alloy_primitives::{Address, U256};
    use eden_core::curve;
    crate::chain::abi::ILaunchpad::Launch {
        quote,
        launchTime: launch_time,
        graduated: false,
        creator: Address::ZERO,
        ownBuybackShare: 0,
        virtualQuote: curve::state::ETH_VIRTUAL_QUOTE,
        quoteRaised: U256::ZERO,
        tokenReserve: curve::state::DEFAULT_TOTAL_SUPPLY,
        feesAccrued: U256::ZERO,
    }
}
