//! The epoch registry's slot states and limits (C7), as `EpochRegistry` defines them: one place for every
//! reader (the app, the watchtower, the keeper).

/// `EpochRegistry.CHALLENGE_WINDOW`: a proposal is pending this long (72 h, C7).
pub const CHALLENGE_WINDOW_SECS: u64 = 72 * 3600;
/// `EpochRegistry.MAX_CHALLENGES`: challenges one proposal may have (C7).
pub const MAX_CHALLENGES: u8 = 2;
/// `EpochRegistry.ADJUDICATION_TIMEOUT`: a challenge not ruled on within this long may be lapsed by anyone
/// (7 days, C7 decided).
pub const ADJUDICATION_TIMEOUT_SECS: u64 = 7 * 24 * 3600;

/// An epoch slot's status on chain (`EpochRegistry.Status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EpochStatus {
    /// Not proposed yet (0, or an unknown code).
    NotProposed,
    /// Proposed, in its challenge window.
    Pending,
    /// Challenged, awaiting the adjudicator.
    Challenged,
    /// Final.
    Final,
}

impl EpochStatus {
    /// From the contract's `uint8` (`None = 0, Pending = 1, Challenged = 2, Final = 3`).
    pub fn from_code(s: u8) -> Self {
        match s {
            1 => Self::Pending,
            2 => Self::Challenged,
            3 => Self::Final,
            _ => Self::NotProposed,
        }
    }

    /// The contract's `uint8`.
    pub fn code(self) -> u8 {
        match self {
            Self::NotProposed => 0,
            Self::Pending => 1,
            Self::Challenged => 2,
            Self::Final => 3,
        }
    }

    /// In words.
    pub fn name(self) -> &'static str {
        match self {
            Self::NotProposed => "not proposed",
            Self::Pending => "pending",
            Self::Challenged => "challenged",
            Self::Final => "final",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_codes_read_as_not_proposed() {
        for s in [
            EpochStatus::NotProposed,
            EpochStatus::Pending,
            EpochStatus::Challenged,
            EpochStatus::Final,
        ] {
            assert_eq!(EpochStatus::from_code(s.code()), s);
        }
        assert_eq!(EpochStatus::from_code(4), EpochStatus::NotProposed);
        assert_eq!(EpochStatus::from_code(255), EpochStatus::NotProposed);
    }
}
