//! `EpochRegistry`'s epoch slots (C7).

/// An epoch slot's status on chain (`EpochRegistry.Status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// From the contract's `uint8`.
    pub fn from_code(s: u8) -> Self {
        match s {
            1 => Self::Pending,
            2 => Self::Challenged,
            3 => Self::Final,
            _ => Self::NotProposed,
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

/// An epoch status code in words.
pub fn status_name(s: u8) -> &'static str {
    EpochStatus::from_code(s).name()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_as_the_registry_defines_them() {
        let names: Vec<&str> = (0u8..5).map(status_name).collect();
        assert_eq!(
            names,
            [
                "not proposed",
                "pending",
                "challenged",
                "final",
                "not proposed"
            ]
        );
    }
}
