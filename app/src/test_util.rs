//! Fixtures shared by the app's tests (one place, so no page imports another page's tests).

use alloy_primitives::{Address, B256, U256};
use eden_core::scoring::epoch::{ProjectData, ProjectInput};

/// Six public agents projects 0x01…06.
pub(crate) fn projects() -> Vec<ProjectInput> {
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
