//! Fixtures shared by the crate's tests (one place, so no module imports another's tests).

use crate::scoring::epoch::{ProjectData, ProjectInput};
use alloy_primitives::{Address, B256, U256};

/// `x × 10^(18 − decimals)`: `w(6384, 2)` is 63.84 as a WAD.
pub(crate) fn w(x: u64, decimals: u32) -> U256 {
    U256::from(x) * U256::from(10u8).pow(U256::from(18 - decimals))
}

/// Six public `agents` projects 0x01…0x06 with growing features.
pub(crate) fn agents_projects() -> Vec<ProjectInput> {
    (1u8..=6)
        .map(|i| ProjectInput {
            project: Address::repeat_byte(i),
            data: ProjectData {
                track: "agents".into(),
                features: vec![
                    U256::from(1000u32 * u32::from(i)),
                    U256::from(10u32 * u32::from(i)),
                    U256::from(i),
                    U256::from(5000u32),
                ],
                claims: 10,
                failed: 1,
                verified_output: U256::from(100u32),
                age_secs: 30 * 86_400,
            },
            salt: B256::ZERO,
            private: false,
        })
        .collect()
}
